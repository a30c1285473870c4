import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app';

type Json = Record<string, unknown>;

/** Every schema of the document (components, parameters, bodies, responses, webhooks), with where it sits. */
function schemasIn(value: unknown, at: string, out: Array<[string, Json]> = []): Array<[string, Json]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) schemasIn(item, `${at}/${i}`, out);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Json)) {
      const where = `${at}/${key}`;
      if (key === 'schema' && child && typeof child === 'object') collectSchema(child as Json, where, out);
      else if (key === 'schemas' && child && typeof child === 'object') {
        for (const [name, schema] of Object.entries(child as Json))
          collectSchema(schema as Json, `${where}/${name}`, out);
      } else schemasIn(child, where, out);
    }
  }
  return out;
}

function collectSchema(schema: Json, at: string, out: Array<[string, Json]>): void {
  out.push([at, schema]);
  const sub = (value: unknown, where: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) collectSchema(value as Json, where, out);
  };
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(schema[key]))
      for (const [i, s] of (schema[key] as unknown[]).entries()) sub(s, `${at}/${key}/${i}`);
  }
  for (const key of ['items', 'not', 'propertyNames', 'additionalProperties']) sub(schema[key], `${at}/${key}`);
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Json)) sub(s, `${at}/properties/${name}`);
}

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default']);

/**
 * The documentation viewer (and the client generators that read schemas the same way) rejects a referenced
 * schema holding a type-less part: the console of /dashboard/api/docs listed `Contact` (a nullable date as
 * `anyOf [string, null]`), `Campaign` (`additionalProperties: {}`) and `Error` (`details: {}`).
 */
describe('the OpenAPI document is plain enough for documentation viewers', () => {
  let t: TestApp;
  let doc: Json;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes a nullable value as a type list, never as anyOf with null', () => {
    const nullableUnions = schemasIn(doc, '#')
      .filter(([, s]) => Array.isArray(s.anyOf) && (s.anyOf as Json[]).some((branch) => branch.type === 'null'))
      .map(([at]) => at);
    expect(nullableUnions).toEqual([]);
    const contact = (doc.components as { schemas: Record<string, Json> }).schemas.Contact as Json;
    const consent = (contact.properties as Record<string, Json>).consent as Json;
    expect((consent.properties as Record<string, Json>).at).toEqual({
      type: ['string', 'null'],
      description: 'Data e hora ISO 8601 (UTC).',
    });
  });

  it('gives every "any value" schema an explicit type (no empty or description-only schema)', () => {
    const typeless = schemasIn(doc, '#')
      .filter(([, s]) => Object.keys(s).every((key) => ANNOTATIONS.has(key)))
      .map(([at]) => at);
    expect(typeless).toEqual([]);
    const campaignItem = (doc.components as { schemas: Record<string, Json> }).schemas.CampaignListItem as Json;
    expect(campaignItem.additionalProperties).toBe(true);
  });
});
