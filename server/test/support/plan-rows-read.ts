import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/db/database';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * How many rows of `table` the statements `read` runs on the database read (returned or filtered out, every loop),
 * from EXPLAIN ANALYZE: `read` gets a Db whose execute explains each statement instead of running it (it sees no
 * rows back). A bound on this is a test that a read stays one index range however long the table's past is.
 */
export async function planRowsRead(db: Db, table: string, read: (explaining: Db) => Promise<unknown>): Promise<number> {
  let rows = 0;
  const explaining = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (query: SQL) => {
        const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(target, sql`explain (analyze, format json) ${query}`);
        const plan = row?.['QUERY PLAN'];
        const [root] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
        const visit = (node: PlanNode) => {
          if (node['Relation Name'] === table) {
            rows += ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
          }
          for (const child of node.Plans ?? []) visit(child);
        };
        if (root) visit(root.Plan);
        return { rows: [] };
      };
    },
  });
  await read(explaining);
  return rows;
}
