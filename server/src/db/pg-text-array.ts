/** A PostgreSQL array literal of texts (one bind parameter per column, whatever the number of rows). */
export function pgTextArray(values: ReadonlyArray<string | null>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (v.includes('"') || v.includes('\\')) parts[i] = `"${v.replace(/[\\"]/g, '\\$&')}"`;
    else parts[i] = `"${v}"`;
  }
  return `{${parts.join(',')}}`;
}
