import {
  SEGMENT_DATE_OPERATORS,
  SEGMENT_NUMBER_OPERATORS,
  type SegmentCondition,
  type SegmentGroup,
} from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { SEGMENT_FIELD_SLOTS } from './segments.db';

/** What a segment is compiled against: the account, its custom field keys, its time zone and the clock. */
export interface SegmentContext {
  accountId: string;
  /**
   * The account's custom field keys (a custom field condition naming any other key is refused, 400), each with the
   * slot of its columns on the segment row, or null where its values are in the row's jsonb objects
   * (segment_field_slots, ADR 0045).
   */
  customFields: ReadonlyMap<string, number | null>;
  /** The account's own list ids: a list condition naming another is refused (400). */
  listIds: ReadonlySet<string>;
  /** IANA zone for "aniversário este mês" and subscription dates (the account's, America/Sao_Paulo by default). */
  timeZone: string;
  now: Date;
  /**
   * The account's most recent sent campaigns, newest first (up to the largest N the tree asks for), read
   * beforehand (and folded into segment_engagement) so the engagement conditions name them as one array
   * parameter.
   */
  recentCampaignIds: readonly string[];
}

/**
 * A compiled segment for a query over `c`: `contacts` is what the query reads the contacts from (`contacts c`, or
 * for a count their segment rows, compileRows), `joins` (LEFT JOINs, possibly empty) go right after it, `where` is
 * a boolean over `c` and those joins. A set of contacts the tree names (a list's subscribed members, everyone who
 * ever opened) is tested in one of two ways. Directly under the top-level E it is an EXISTS / NOT EXISTS, which
 * the planner turns into a hash semi- or anti-join. Inside an OU (or below one) it is one LEFT JOIN of the set,
 * however often the tree names it: the planner hashes it once and each test is a column check that costs the same
 * inside any nesting — where a correlated sub-query would be one probe per contact. The opened/clicked/não abriu
 * conditions over the last N campaigns, wherever they are, read one LEFT JOIN of the contact's segment_engagement
 * row (its newest opened, clicked and delivered sent campaigns).
 */
export interface CompiledSegment {
  contacts: SQL;
  joins: SQL;
  where: SQL;
  /** Whether the query reads contact sets: it must then run with nested loops off (see segments.ts). */
  hasSets: boolean;
  /** A count of a tree that is one contact set: the set alone (segmentCountQuery), never every contact. */
  countSet?: CountedSet;
}

/**
 * A tree that is one contact set — a list's members, a custom field's typed range, segment_engagement's rows an
 * engagement condition selects: a query of `contact_id`s of existing contacts of the account, each once — or the
 * contacts outside it (`outside`: "não está em VIP", "nunca abriu"). Counted from the set's own index or rows
 * ("está em Clientes", 600k members: an index-only count), or as the account's contacts less the set (ADR 0042).
 */
export interface CountedSet {
  set: SQL;
  outside: boolean;
}

/**
 * Compiles a validated condition tree (shared segmentTreeSchema) into a query shape over the contact alias `c`
 * (contacts). Every value is a bound parameter; the only identifiers in the SQL are the fixed ones written here
 * (a custom field is `c.fields ->> $key`, its key a parameter). Text comparisons ignore case. Dates and numbers
 * in custom fields are text: a value that does not look like one simply does not match (no cast can fail — the
 * casts are guarded by a check of the text's shape); contacts keeps them typed in contact_field_values (ADR 0039),
 * which a number/date condition on a custom field reads where that is cheaper than the parse (typedFieldSet).
 *
 * A count (`count`) reads, by the tree: one set alone (countSet); the contacts, when every condition reads the
 * contact's own columns as they are (readsContactAlone); otherwise the contacts' segment rows (compileRows).
 */
export function compileSegment(
  tree: SegmentGroup,
  ctx: SegmentContext,
  { count = false }: { count?: boolean } = {},
): CompiledSegment {
  const compiled = compileJoined(tree, ctx);
  if (!count) return compiled;
  const top = onlyCondition(tree);
  const one = top.type === 'group' ? undefined : conditionSet(top, ctx);
  if (one) return { ...compiled, countSet: { set: one.set.query(), outside: one.outside } };
  return compileOnePass(tree, ctx);
}

/**
 * The one pass over the account that a count makes of a tree that is not one set alone: the contacts when every
 * condition reads the contact's own columns as they are, otherwise the contacts' segment rows. The preview's
 * fallback reads it too, keeping the newest matches as it goes.
 */
export function compileOnePass(tree: SegmentGroup, ctx: SegmentContext): CompiledSegment {
  return readsContactAlone(tree) ? compileJoined(tree, ctx) : compileRows(tree, ctx);
}

function compileJoined(tree: SegmentGroup, ctx: SegmentContext): CompiledSegment {
  const rowJoined = readsEngagementRow(tree);
  const nestedOnly = rowJoined && !conjunctReadsEngagementRow(tree, true);
  const flagged = nestedOnly && engagementGroups(tree, true) === 1;
  const sets = new ContactSets('join', rowJoined, flagged, nestedOnly && !flagged);
  const where = compileGroup(tree, ctx, sets, true);
  return { contacts: sql`contacts c`, joins: sets.joins(ctx), where, hasSets: sets.named };
}

/**
 * A count over the contacts' segment rows (segment_engagement, migration 0066, ADR 0043): one row per contact with
 * its status, creation, lower-cased texts, typed fields, subscribed lists and engagement, so every condition is a
 * test of that row — no join, no parse, no lower() per count. On the contacts, each set the tree names was a hash
 * (of up to every contact) that every contact probed, and each field text was looked up, lowered or parsed per
 * contact: the worst nesting at 1M measured 1.8–2.9 s that way and 0.22–0.24 of that on the rows; an OU or E of
 * sets 0.37–0.64 (docs/benchmarks.md, session 25). `c` is the row's contact columns under the contacts' names (a
 * lateral projection the planner flattens into the scan), so a count reads it as it reads contacts.
 */
function compileRows(tree: SegmentGroup, ctx: SegmentContext): CompiledSegment {
  return {
    contacts: sql`segment_engagement g cross join lateral (select g.contact_id as id, g.account_id as account_id,
                    g.contact_status as status, g.contact_created_at as created_at) c`,
    joins: sql``,
    where: compileGroup(tree, ctx, new ContactSets('row'), true),
    hasSets: false,
  };
}

/**
 * Whether every condition reads the contact's own columns as they are — a status, a subscription date, a text
 * compared without lower() (a value without letters, or empty / not empty) — so the contacts, narrower than the
 * segment rows, are the cheaper pass ("nome contém 99": 96 ms on contacts, 1.2–1.3× that on the rows at 1M).
 */
function readsContactAlone(group: SegmentGroup): boolean {
  return group.conditions.every((c) => {
    if (c.type === 'group') return readsContactAlone(c);
    if (c.type === 'status' || c.type === 'subscribed_at') return true;
    if (c.type !== 'field' || typedFieldOperator(c.operator)) return false;
    return c.operator === 'is_empty' || c.operator === 'is_not_empty' || CASELESS_VALUE.test((c.value ?? '').trim());
  });
}

/** The condition a branch is, through groups of one condition (E and OU of one condition are that condition). */
function onlyCondition(branch: SegmentCondition | SegmentGroup): SegmentCondition | SegmentGroup {
  return branch.type === 'group' && branch.conditions.length === 1
    ? onlyCondition(branch.conditions[0] as SegmentCondition | SegmentGroup)
    : branch;
}

/**
 * The contact set a condition selects (`outside`: the contacts outside it), if it is one whose rows are all of
 * existing contacts of the account: a list's subscribed members (deleted with their contact, checked against it
 * on insert), a custom field's typed values (kept by the triggers on contacts), and segment_engagement's rows
 * (migration 0059). The tree is already validated by compileGroup.
 */
function conditionSet(c: SegmentCondition, ctx: SegmentContext): { set: ContactSet; outside: boolean } | undefined {
  switch (c.type) {
    case 'list':
      return { set: listSet(c.listId), outside: c.operator === 'not_in' };
    case 'field':
      return typeof c.field === 'object' && typedFieldOperator(c.operator)
        ? { set: typedFieldSet(c.field.custom, c.operator, (c.value ?? '').trim(), ctx), outside: false }
        : undefined;
    case 'engagement': {
      // "Nunca abriu" is the contacts outside those whose row says they opened (contact_first_opens may hold an
      // erased contact again after a late open; segment_engagement does not).
      const { test, missing } = engagementRowTest(c, ctx);
      return {
        set: engagementSet(ctx, `${c.operator}:${c.campaigns ?? 5}`, missing ? sql`not ${test}` : test),
        outside: missing,
      };
    }
    default:
      return undefined;
  }
}

/** The contacts whose segment_engagement row passes `test` (never null). */
function engagementSet(ctx: SegmentContext, key: string, test: SQL): ContactSet {
  return {
    key: `engagement:${key}`,
    query: () => sql`select g.contact_id from segment_engagement g where g.account_id = ${ctx.accountId} and ${test}`,
  };
}

/** A list's subscribed members. */
function listSet(listId: string): ContactSet {
  return {
    key: `list:${listId}`,
    query: () => sql`select lm.contact_id from list_memberships lm
                      where lm.list_id = ${listId}::uuid and lm.status = 'subscribed'`,
  };
}

/**
 * The same tree as ONE boolean expression over `c` alone (no joins), for a query that combines segments with
 * other sources (the campaign audience, contacts/count-recipients.ts): every set test is an EXISTS, a semi-join
 * at the top of an E and an indexed probe inside an OU. Same conditions, same sets as compileSegment (one
 * compiler, two renderings of membership).
 */
export function compileSegmentPredicate(tree: SegmentGroup, ctx: SegmentContext): SQL {
  return compileGroup(tree, ctx, new ContactSets('exists'), false);
}

/** A set of contacts: a query selecting `contact_id`, each contact once (never null). */
interface ContactSet {
  key: string;
  query: () => SQL;
}

/** The contact sets one compiled tree names; those tested inside an OU become one join each (by key). */
class ContactSets {
  private readonly joined = new Map<string, { alias: string; query: SQL }>();
  private engagementJoin: SQL | null = null;
  /** The narrow row's columns (`narrow`): each engagement test of the tree, evaluated on the row as e1, e2, … */
  private readonly engagementColumns: SQL[] = [];
  named = false;
  /**
   * `rowJoined`: the tree reads the contact's segment_engagement row anyway (an opened/clicked/não abriu
   * condition), so "nunca abriu" is a column of that row rather than a second join of tracking's first opens.
   * `flagged`: the tree's opened/clicked/não abriu conditions are all nested in OUs and sit in one group: they
   * are read as one contact set (engagementFlag) instead of the whole row.
   * `narrow`: they are all nested in OUs, in several groups: the row is joined once, narrowed to one boolean per
   * test (engagementRow).
   */
  constructor(
    readonly mode: 'join' | 'exists' | 'row',
    private readonly rowJoined = false,
    private readonly flagged = false,
    private readonly narrow = false,
  ) {}

  /** Whether the engagement conditions nested in an OU are read as one contact set (engagementFlag). */
  get flagsEngagement(): boolean {
    return this.mode === 'join' && this.rowJoined && this.flagged;
  }

  /** Whether the contact is subscribed to the list: its segment row's lists (`row`), or the list's members. */
  inList(listId: string, topLevel: boolean): SQL {
    if (this.mode === 'row') return sql`${listId}::uuid = any(g.list_ids)`;
    return this.has(listSet(listId), topLevel);
  }

  /** A boolean over `c`: is the contact in the set. `topLevel`: a conjunct of the top-level E. */
  has(set: ContactSet, topLevel: boolean): SQL {
    if (this.mode === 'row') throw new Error('a segment row is tested by its columns, not by contact sets');
    this.named = true;
    if (this.mode === 'exists' || topLevel) {
      return sql`exists (select 1 from (${set.query()}) s where s.contact_id = c.id)`;
    }
    let entry = this.joined.get(set.key);
    if (!entry) {
      entry = { alias: `s${this.joined.size + 1}`, query: set.query() };
      this.joined.set(set.key, entry);
    }
    return sql`${sql.raw(entry.alias)}.contact_id is not null`;
  }

  /**
   * Whether the contact's newest opened (clicked) sent campaign — segment_engagement, kept on write — is one of
   * `campaigns` (the last N): it opened (clicked) one of them exactly then. With joins, every engagement
   * condition of the tree reads the same row, joined once; as a predicate, a probe of its primary key.
   * `positive`: the test is not negated, and a conjunct of the top-level E — a plain comparison (null is false
   * there), which lets the planner make the join an inner one; anywhere else it is null-safe.
   */
  engaged(ctx: SegmentContext, kind: 'open' | 'click', campaigns: SQL, positive: boolean): SQL {
    const column = sql.raw(kind === 'open' ? 'last_opened_campaign_id' : 'last_clicked_campaign_id');
    return this.engagementRow(
      ctx,
      positive ? sql`g.${column} = any(${campaigns})` : sql`(g.${column} = any(${campaigns})) is true`,
      false,
    );
  }

  /**
   * "Não abriu nenhuma das últimas N": the contact's newest delivered sent campaign is one of `campaigns` (so one
   * of them was delivered to it) and its newest opened one is not (so it opened none of them) — two column checks
   * on the same segment_engagement row the other engagement conditions read. `topLevel`: a conjunct of the
   * top-level E — the delivered check is then a plain comparison, which lets the planner make the join an inner
   * one; anywhere else it is null-safe.
   */
  notOpened(ctx: SegmentContext, campaigns: SQL, topLevel: boolean): SQL {
    const delivered = sql`g.last_delivered_campaign_id = any(${campaigns})`;
    return this.engagementRow(
      ctx,
      sql`(${topLevel ? delivered : sql`(${delivered}) is true`}
           and (g.last_opened_campaign_id = any(${campaigns})) is not true)`,
      false,
    );
  }

  /**
   * "Nunca abriu": no human open, of any message. In a tree that joins segment_engagement anyway, its
   * `ever_opened` (null-safe: no row, no open); otherwise not in contact_first_opens — one row per opener, smaller
   * than segment_engagement (a row per mailed contact) when nothing else needs the latter.
   */
  neverOpened(ctx: SegmentContext, topLevel: boolean): SQL {
    if (this.mode === 'row' || (this.mode === 'join' && this.rowJoined && !(this.flagged && topLevel))) {
      return this.engagementRow(ctx, sql`g.ever_opened is not true`, true);
    }
    return sql`not ${this.has(
      {
        key: 'opened-ever',
        query: () => sql`select o.contact_id from contact_first_opens o where o.account_id = ${ctx.accountId}`,
      },
      topLevel,
    )}`;
  }

  /**
   * A test on the contact's segment_engagement row `g`: its column check with joins, a probe as a predicate.
   * `missing`: the test's value for a contact without a row (a positive top-level test's null counts as false).
   *
   * `narrow` (several groups nested in OUs read the row, none as a conjunct of the top-level E): the row is joined
   * as `(select g.contact_id, <test 1> as e1, … from segment_engagement g) g`, each test `g.eN is true` (or `is not
   * false` when a missing row passes it). A test that is not null-strict is evaluated where the row is read (the
   * planner carries it as a placeholder), so the hash holds the id and a few booleans instead of the three campaign
   * ids and the flag of every row: the worst nesting at 1M measured 0.92× the whole row (docs/benchmarks.md,
   * session 11). Every such test is null-safe (`is true` / `is not true`), so eN is never null for a contact with
   * a row, and null exactly when there is none.
   */
  private engagementRow(ctx: SegmentContext, test: SQL, missing: boolean): SQL {
    // The segment row is `g` itself: its engagement columns are null (ever_opened false) for a contact never mailed,
    // as a missing row's are.
    if (this.mode === 'row') return test;
    this.named = true;
    if (this.mode === 'exists') {
      return sql`exists (select 1 from segment_engagement g where g.account_id = ${ctx.accountId}
                          and g.contact_id = c.id and ${test})`;
    }
    if (this.narrow) {
      this.engagementColumns.push(test);
      const column = sql.raw(`g.e${this.engagementColumns.length}`);
      return missing ? sql`${column} is not false` : sql`${column} is true`;
    }
    this.engagementJoin ??= sql`left join segment_engagement g
                                  on g.account_id = ${ctx.accountId} and g.contact_id = c.id`;
    return test;
  }

  /**
   * The engagement conditions of the one group nested in an OU that has any, read as one contact set: `test` is
   * their E / OU over the segment_engagement row `g` (never null) and `missing` its value for a contact without
   * a row (nothing opened, clicked nor delivered: "nunca abriu" true, the others false). The set is the rows
   * where the test differs from `missing` — their contact ids only, often a fraction of the account's rows —
   * so the planner hashes those instead of every contact's whole row (the OU row measured 577 ms at 1M with the
   * whole row; docs/benchmarks.md "Segments engagement in OU — session 9").
   */
  engagementFlag(ctx: SegmentContext, key: string, test: SQL, missing: boolean): SQL {
    const differs = this.has(engagementSet(ctx, key, missing ? sql`not ${test}` : test), false);
    return missing ? sql`not ${differs}` : differs;
  }

  joins(ctx: SegmentContext): SQL {
    const parts = [...this.joined.values()].map(
      ({ alias, query }) => sql`left join (${query}) ${sql.raw(alias)} on ${sql.raw(alias)}.contact_id = c.id`,
    );
    if (this.engagementJoin) parts.push(this.engagementJoin);
    if (this.engagementColumns.length > 0) {
      const columns = this.engagementColumns.map((test, i) => sql`${test} as ${sql.raw(`e${i + 1}`)}`);
      parts.push(
        sql`left join (select g.contact_id, ${sql.join(columns, sql`, `)} from segment_engagement g
                        where g.account_id = ${ctx.accountId}) g on g.contact_id = c.id`,
      );
    }
    return sql.join(parts, sql` `);
  }
}

/** Whether the tree has an engagement condition that reads the segment_engagement row (all but "nunca abriu"). */
function readsEngagementRow(group: SegmentGroup): boolean {
  return group.conditions.some((c) =>
    c.type === 'group' ? readsEngagementRow(c) : c.type === 'engagement' && c.operator !== 'never_opened',
  );
}

/**
 * Whether an opened/clicked/não abriu condition is a conjunct of the top-level E (`topLevel`: `group` is that E or
 * an E directly inside it) — the one place where a test of the contact's segment_engagement row filters the
 * contacts, and the row is then joined whole (the join becomes an inner one).
 */
function conjunctReadsEngagementRow(group: SegmentGroup, topLevel: boolean): boolean {
  const conjunct = topLevel && (group.match === 'all' || group.conditions.length === 1);
  if (!conjunct) return false;
  return group.conditions.some((c) =>
    c.type === 'group' ? conjunctReadsEngagementRow(c, true) : c.type === 'engagement' && c.operator !== 'never_opened',
  );
}

type EngagementCondition = Extract<SegmentCondition, { type: 'engagement' }>;

/**
 * How many groups outside the top-level E's conjuncts have engagement conditions among their own (each would be
 * one engagement set). With one, it is a set of the rows where its test differs from a contact without a row —
 * narrow, and often a fraction of the rows; with several, sets of several such fractions cost more than the
 * whole row joined once (at 200k: 4 sets for the worst nesting, 1.1× the whole row; docs/benchmarks.md).
 */
function engagementGroups(group: SegmentGroup, topLevel: boolean): number {
  const conjunct = topLevel && (group.match === 'all' || group.conditions.length === 1);
  const own = !conjunct && group.conditions.some((c) => c.type === 'engagement') ? 1 : 0;
  return group.conditions.reduce((n, c) => n + (c.type === 'group' ? engagementGroups(c, conjunct) : 0), own);
}

/**
 * An engagement condition as a test of the segment_engagement row `g` that is never null, and its value for a
 * contact without a row (nothing opened, clicked nor delivered).
 */
function engagementRowTest(c: EngagementCondition, ctx: SegmentContext): { test: SQL; missing: boolean } {
  const campaigns = lastCampaigns(ctx, c.campaigns ?? 5);
  switch (c.operator) {
    case 'opened_any':
      return { test: sql`(g.last_opened_campaign_id = any(${campaigns})) is true`, missing: false };
    case 'clicked_any':
      return { test: sql`(g.last_clicked_campaign_id = any(${campaigns})) is true`, missing: false };
    case 'opened_none':
      return {
        test: sql`((g.last_delivered_campaign_id = any(${campaigns})) is true
                   and (g.last_opened_campaign_id = any(${campaigns})) is not true)`,
        missing: false,
      };
    case 'never_opened':
      return { test: sql`not g.ever_opened`, missing: true };
  }
}

/** `topLevel`: the group is the top-level E (or an E directly inside it), whose conjuncts may be semi-joins. */
/**
 * `screened`: some group between the tree's root and this one (the root excluded) is an E of several
 * conditions, so this group is reached only by the contacts its cheaper siblings passed (undefined: the root).
 */
function compileGroup(
  group: SegmentGroup,
  ctx: SegmentContext,
  sets: ContactSets,
  topLevel: boolean,
  screened?: boolean,
): SQL {
  const conjunct = topLevel && (group.match === 'all' || group.conditions.length === 1);
  const inner = screened === true || (screened === false && group.match === 'all' && group.conditions.length > 1);
  const engagement = group.conditions.filter((c): c is EngagementCondition => c.type === 'engagement');
  const flagged = !conjunct && sets.flagsEngagement && engagement.length > 0;
  const parts = group.conditions
    .filter((c) => !(flagged && c.type === 'engagement'))
    .map((c) => ({
      cost: costRank(c, sets.mode, conjunct, inner),
      sql:
        c.type === 'group'
          ? compileGroup(c, ctx, sets, conjunct, inner)
          : compileCondition(c, ctx, sets, conjunct, inner),
    }));
  if (flagged) {
    // The group's engagement conditions together (E and OU are commutative): one set, one column check.
    const tests = engagement.map((c) => engagementRowTest(c, ctx));
    const all = group.match === 'all';
    parts.push({
      cost: 1,
      sql: sets.engagementFlag(
        ctx,
        `${group.match}:${JSON.stringify(engagement.map((c) => [c.operator, c.campaigns ?? 5]))}`,
        sql`(${sql.join(
          tests.map((t) => t.test),
          all ? sql` and ` : sql` or `,
        )})`,
        all ? tests.every((t) => t.missing) : tests.some((t) => t.missing),
      ),
    });
  }
  if (parts.length === 0) return sql`true`;
  // PostgreSQL evaluates the operands of a nested AND / OR in the order written and stops at the first that
  // decides it; it reorders only the top-level conjuncts. Cheapest first, then, so a column check that fails
  // spares the contact the text functions of a custom field (the user's order is kept among equals; AND and
  // OR are commutative in SQL's three-valued logic).
  parts.sort((a, b) => a.cost - b.cost);
  return sql`(${sql.join(
    parts.map((p) => p.sql),
    group.match === 'all' ? sql` and ` : sql` or `,
  )})`;
}

/**
 * The relative cost per contact of a condition: a column comparison, a joined set's column check, a text
 * function of a field, a number (shape check + cast), a date (regular expressions); a correlated EXISTS (the
 * predicate form inside an OU) probes an index per contact. A group costs its dearest condition.
 */
function costRank(
  c: SegmentCondition | SegmentGroup,
  mode: 'join' | 'exists' | 'row',
  topLevel: boolean,
  screened: boolean,
): number {
  switch (c.type) {
    case 'group': {
      const conjunct = topLevel && (c.match === 'all' || c.conditions.length === 1);
      const inner = screened || (c.match === 'all' && c.conditions.length > 1);
      return Math.max(0, ...c.conditions.map((x) => costRank(x, mode, conjunct, inner)));
    }
    case 'status':
    case 'subscribed_at':
      return 0;
    case 'list':
    case 'engagement':
      return mode !== 'exists' || topLevel ? 1 : 5;
    case 'field':
      if (typedFieldOperator(c.operator)) {
        // The segment row's typed value: a jsonb look-up and a numeric cast, dearer than a text's look-up (~120 ms
        // against ~60 ms per 1M rows), cheaper than a parse.
        if (mode === 'row' && typeof c.field === 'object') return 3;
        // A custom field's number or date read from contact_field_values (see compileCondition) where it is a
        // contact set, like a list; parsed where screened, and on e-mail and name.
        if (typeof c.field === 'object' && (topLevel || !screened)) return mode === 'join' || topLevel ? 1 : 5;
        return (SEGMENT_NUMBER_OPERATORS as readonly string[]).includes(c.operator) ? 3 : 4;
      }
      return 2;
  }
}

/** A field's text: of the contact, or (`row`) lower-cased on its segment row. */
function fieldExpression(
  field: Extract<SegmentCondition, { type: 'field' }>['field'],
  ctx: SegmentContext,
  row: boolean,
): SQL {
  if (field === 'email') return row ? sql`g.email_lower` : sql`c.email`;
  if (field === 'name') return row ? sql`g.name_lower` : sql`coalesce(c.name, '')`;
  const slot = slotOf(field.custom, ctx);
  if (!row) return sql`coalesce(c.fields ->> ${field.custom}::text, '')`;
  return slot === null
    ? sql`coalesce(g.field_texts ->> ${field.custom}::text, '')`
    : sql.raw(`coalesce(g.field_text_${slotColumn(slot)}, '')`);
}

/** The slot of a custom field key of the account (null: none); an unknown key is the user's 400. */
function slotOf(key: string, ctx: SegmentContext): number | null {
  const slot = ctx.customFields.get(key);
  if (slot === undefined) {
    throw new AppError('validation_failed', `Campo desconhecido: "${key}". Escolha um campo dos seus contatos.`, {
      fields: [{ path: 'conditions', message: 'Campo desconhecido.' }],
    });
  }
  return slot;
}

/** A slot as it goes into a column name: checked, since it is not a parameter. */
function slotColumn(slot: number): number {
  if (!Number.isInteger(slot) || slot < 1 || slot > SEGMENT_FIELD_SLOTS)
    throw new Error(`no segment field slot ${slot}`);
  return slot;
}

function typedFieldOperator(operator: string): boolean {
  return (
    (SEGMENT_NUMBER_OPERATORS as readonly string[]).includes(operator) ||
    (SEGMENT_DATE_OPERATORS as readonly string[]).includes(operator)
  );
}

const NUMBER_COMPARISON: Record<string, string> = {
  number_eq: '=',
  number_gt: '>',
  number_gte: '>=',
  number_lt: '<',
  number_lte: '<=',
};

/**
 * Whether the typed row `t` (contact_field_values, or a join of it) passes a number or date condition: its `num`
 * or `day`, the field's text typed once per write by the triggers on contacts with the parse the conditions used
 * to run per contact per count (contact_field_number / contact_field_day, migration 0050, ADR 0039). Each test is
 * written as the keys of an index, so it is one index range read index-only: contact_field_values_lookup_idx
 * (account_id, field, num, day, contact_id) for numbers and dates, contact_field_values_month_idx (account_id,
 * field, substr(day, 6, 2), day, contact_id — date rows only) for the month.
 */
function typedTest(typed: TypedValue, operator: string, v: string, ctx: SegmentContext): SQL {
  const { num, day } = typed;
  const comparison = NUMBER_COMPARISON[operator];
  if (comparison) return sql`${num} ${sql.raw(comparison)} ${v.replace(',', '.')}::numeric`;
  // A date is never a number: `num is null` (nulls sort last in the index) leads the range to the field's dates.
  const dates = typed.indexed ? sql`${num} is null and ` : sql``;
  switch (operator) {
    case 'date_on':
      return sql`(${dates}${day} = ${v}::text)`;
    case 'date_before':
      return sql`(${dates}${day} < ${v}::text)`;
    case 'date_after':
      return sql`(${dates}${day} > ${v}::text)`;
    default:
      // "Aniversário este mês": the month of the date written in the field against this month where the account
      // is; 29 February birthdays belong to February in every year, leap or not. `day is not null`: the month
      // index holds the date rows only.
      return sql`(${day} is not null and substr(${day}, 6, 2) = ${monthIn(ctx.now, ctx.timeZone)}::text)`;
  }
}

/**
 * A custom field's typed value: a contact_field_values row's columns (`indexed`: tests written as the keys of its
 * indexes), or the segment row's value under the field's key.
 */
interface TypedValue {
  num: SQL;
  day: SQL;
  indexed: boolean;
}

const typedRow = (t: string): TypedValue => ({ num: sql.raw(`${t}.num`), day: sql.raw(`${t}.day`), indexed: true });

/** A custom field's number and date on the segment row: its slot's columns, or the look-ups of a key without one. */
const typedOnSegmentRow = (key: string, slot: number | null): TypedValue =>
  slot === null
    ? {
        num: sql`(g.field_numbers -> ${key}::text)::numeric`,
        day: sql`(g.field_days ->> ${key}::text)`,
        indexed: false,
      }
    : {
        num: sql.raw(`g.field_number_${slotColumn(slot)}`),
        day: sql.raw(`g.field_day_${slotColumn(slot)}`),
        indexed: false,
      };

/**
 * The contacts whose custom field `key` passes a number or date condition: an index range of
 * contact_field_values. A contact whose field is missing or not a number (date) has no row and does not match,
 * as the parse's null did not. One row per contact and field: each contact once.
 */
function typedFieldSet(key: string, operator: string, v: string, ctx: SegmentContext): ContactSet {
  return {
    key: `typed:${key}:${operator}:${v}`,
    query: () => sql`select t.contact_id from contact_field_values t
                      where t.account_id = ${ctx.accountId} and t.field = ${key}::text
                        and ${typedTest(typedRow('t'), operator, v, ctx)}`,
  };
}

/** ASCII characters that are not letters (space, digits, punctuation): a value of only these has no case. */
const CASELESS_VALUE = /^[\x20-\x40\x5b-\x60\x7b-\x7e]*$/;

/** The month (01–12) of `now` in the time zone. */
export function monthIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: '2-digit' }).format(now);
}

/** The account's N most recent sent campaigns, as a uuid[] parameter. */
function lastCampaigns(ctx: SegmentContext, n: number): SQL {
  return sql`${`{${ctx.recentCampaignIds.slice(0, n).join(',')}}`}::uuid[]`;
}

/**
 * The UTC instant at which `day` (AAAA-MM-DD) starts in the account's time zone, evaluated once per query (an
 * init plan), so "inscrito antes/depois de" compares contacts.created_at directly instead of converting every
 * contact's timestamp to a local date.
 */
function startOfDay(day: SQL, ctx: SegmentContext): SQL {
  return sql`(select (${day})::timestamp at time zone ${ctx.timeZone}::text)`;
}

function compileCondition(
  c: SegmentCondition,
  ctx: SegmentContext,
  sets: ContactSets,
  topLevel: boolean,
  screened: boolean,
): SQL {
  switch (c.type) {
    case 'field': {
      const row = sets.mode === 'row';
      const expression = fieldExpression(c.field, ctx, row);
      const v = (c.value ?? '').trim();
      if (typeof c.field === 'object' && typedFieldOperator(c.operator)) {
        if (row) return typedTest(typedOnSegmentRow(c.field.custom, slotOf(c.field.custom, ctx)), c.operator, v, ctx);
        // The contacts the index range names (ADR 0039), a contact set like a list's members: a semi-join as a
        // conjunct of the top-level E; inside an OU that every contact reaches (no E of several conditions
        // between it and the root) the LEFT JOIN of the set every OU shares — a hash of the range (1/12 of the
        // field's dates for a birthday), where the parse cost every contact ~1–2 µs. Below an E of several
        // conditions the field is parsed, as below: only the contacts the E's cheaper conditions passed get
        // there, and at 100k contacts the worst nesting measured 1.1–1.4× slower with its eight typed fields as
        // joined sets (each contact probes every hash), 1.1–1.3× as correlated EXISTS (which keep the count off
        // parallel workers); docs/benchmarks.md, session 9.
        if (topLevel || !screened) return sets.has(typedFieldSet(c.field.custom, c.operator, v, ctx), topLevel);
      }
      // A value of ASCII digits, punctuation and spaces only ("100", "12-3") is its own lower case, and no character
      // lower-cases into one of them (case mappings take letters to letters and marks, and leave every other
      // character as it is), so the field's lower case holds the value exactly where the field does: it is compared
      // as written, without lower() — dearer per contact than the comparison itself. The segment row's texts are
      // lower-cased already; for the same reason its e-mail and name also answer a number or date parse, and an
      // empty test, as the contact's own texts would.
      const caseless = CASELESS_VALUE.test(v);
      const compared = () => (caseless || row ? expression : sql`lower(${expression})`);
      const value = caseless ? sql`${v}::text` : sql`lower(${v}::text)`;
      switch (c.operator) {
        case 'equals':
          return sql`${compared()} = ${value}`;
        case 'not_equals':
          return sql`${compared()} <> ${value}`;
        case 'contains':
          return sql`strpos(${compared()}, ${value}) > 0`;
        case 'not_contains':
          return sql`strpos(${compared()}, ${value}) = 0`;
        case 'starts_with':
          return sql`starts_with(${compared()}, ${value})`;
        case 'is_empty':
          return sql`btrim(${expression}) = ''`;
        case 'is_not_empty':
          return sql`btrim(${expression}) <> ''`;
        // Parsed with the functions the typed projection's triggers type each write with (migration 0050), so a
        // field parsed here and one read from contact_field_values are the same value. Each is one SQL expression
        // the planner inlines: as cheap as writing it out here, where a called function cost 5×.
        case 'number_eq':
        case 'number_gt':
        case 'number_gte':
        case 'number_lt':
        case 'number_lte':
          return sql`contact_field_number(${expression}) ${sql.raw(NUMBER_COMPARISON[c.operator] as string)} ${v.replace(',', '.')}::numeric`;
        case 'date_on':
          return sql`contact_field_day(${expression}) = ${v}::text`;
        case 'date_before':
          return sql`contact_field_day(${expression}) < ${v}::text`;
        case 'date_after':
          return sql`contact_field_day(${expression}) > ${v}::text`;
        case 'birthday_this_month':
          // The month of the date written in the field against this month where the account is: 29 February
          // birthdays belong to February in every year, leap or not.
          return sql`substr(contact_field_day(${expression}), 6, 2) = ${monthIn(ctx.now, ctx.timeZone)}::text`;
      }
      break;
    }
    case 'list': {
      if (!ctx.listIds.has(c.listId)) throw new AppError('validation_failed', ERROR_TEXT.lists.unknownChosen);
      const member = sets.inList(c.listId, topLevel);
      return c.operator === 'in' ? member : sql`not ${member}`;
    }
    case 'status':
      return c.operator === 'is' ? sql`c.status = ${c.value}::text` : sql`c.status <> ${c.value}::text`;
    case 'subscribed_at': {
      if (c.operator === 'in_last_days') {
        const since = new Date(ctx.now.getTime() - Number(c.value) * 86_400_000);
        return sql`c.created_at >= ${since.toISOString()}::timestamptz`;
      }
      // Local day < D  ⇔  created before D starts there; local day > D  ⇔  created once D + 1 has started.
      return c.operator === 'before'
        ? sql`c.created_at < ${startOfDay(sql`${c.value}::date`, ctx)}`
        : sql`c.created_at >= ${startOfDay(sql`${c.value}::date + 1`, ctx)}`;
    }
    case 'engagement': {
      const n = c.campaigns ?? 5;
      switch (c.operator) {
        case 'opened_any':
          return sets.engaged(ctx, 'open', lastCampaigns(ctx, n), topLevel);
        case 'clicked_any':
          return sets.engaged(ctx, 'click', lastCampaigns(ctx, n), topLevel);
        case 'opened_none':
          // Received at least one of the last N campaigns and opened none of them: someone never mailed is not
          // a non-opener.
          return sets.notOpened(ctx, lastCampaigns(ctx, n), topLevel);
        case 'never_opened':
          // contact_first_opens (or segment_engagement.ever_opened) holds each contact with a human open, kept by
          // triggers on message_events: a set the size of the account's openers, not of its events.
          return sets.neverOpened(ctx, topLevel);
      }
    }
  }
  throw new AppError('validation_failed', ERROR_TEXT.segments.invalidCondition);
}
