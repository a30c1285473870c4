import type { TestApp } from './test-app';

/** Every [method, url] the app registered under /api/admin, rebuilt from Fastify's route tree (HEAD left out). */
export function adminRoutes(t: TestApp): Array<['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', string]> {
  const found: Array<['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', string]> = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    // "│   ├── /:id/price (PUT)": 4 characters of indentation per level, then the branch and the segment.
    const match = line.match(/^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([^)]+)\))?$/);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + (match[2] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    if (!path.startsWith('/api/admin') || !match[3]) continue;
    for (const method of match[3].split(',').map((m) => m.trim())) {
      if (method !== 'HEAD' && method !== 'OPTIONS') found.push([method as 'GET', path]);
    }
  }
  return found;
}
