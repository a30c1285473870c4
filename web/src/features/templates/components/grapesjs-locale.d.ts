/** GrapesJS ships its UI translations as plain objects without type declarations. */
declare module 'grapesjs/locale/pt.mjs' {
  const messages: Record<string, unknown>;
  export default messages;
}
