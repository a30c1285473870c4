// html-to-text 10 ships no types and @types/html-to-text is not installed: the one function we call.
declare module 'html-to-text' {
  export function convert(html: string, options?: Record<string, unknown>): string;
}
