import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

// The boundaries of docs/architecture.md are dependency-cruiser rules (.dependency-cruiser.cjs).
// Every rule must fire on the fixture tree, which mirrors the repository's layout and breaks each
// rule once, and must stay quiet on the fixture's allowed imports.
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

let violations: { rule: string; from: string; to: string }[];
beforeAll(async () => {
  const { forbidden = [], options = {} } = config;
  const out = await cruise(['apps', 'packages'], { ...options, baseDir: fixtures, validate: true, ruleSet: { forbidden } });
  violations = (out.output as ICruiseResult).summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}, 60_000);

const firing = (rule: string) => violations.filter((v) => v.rule === rule).map((v) => `${v.from} → ${v.to}`);

describe('architecture boundaries (dependency-cruiser)', () => {
  it('every rule of the configuration is exercised by a fixture', () => {
    const rules = (config.forbidden ?? []).map((r) => r.name);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const r of rules) expect(firing(r ?? ''), r).not.toEqual([]);
  });

  it('SQL stays in repositories: drizzle (even its types) and the schema are refused in a service, allowed in a repository', () => {
    const hits = firing('sql-only-in-repositories');
    expect(hits.some((h) => h.startsWith('apps/server/src/modules/loads/loads.service.ts → ') && h.includes('node_modules/drizzle-orm/'))).toBe(true);
    expect(hits).toContain('apps/server/src/modules/loads/loads.service.ts → apps/server/src/db/schema/index.ts');
    expect(hits.filter((h) => h.startsWith('apps/server/src/modules/loads/loads.repository.ts'))).toEqual([]);
    expect(hits.filter((h) => h.startsWith('apps/server/src/modules/offers/offers.repository.ts'))).toEqual([]);
  });

  it("a module calls its own repository, never another module's", () => {
    expect(firing('module-owns-its-repository')).toEqual([
      'apps/server/src/modules/loads/loads.service.ts → apps/server/src/modules/offers/offers.repository.ts',
    ]);
  });

  it("modules meet through ports: another module's service is refused at run time; types, events, testkits are fine", () => {
    expect(firing('modules-meet-through-ports')).toEqual([
      'apps/server/src/modules/loads/loads.service.ts → apps/server/src/modules/offers/offers.repository.ts',
      'apps/server/src/modules/team/team.service.ts → apps/server/src/modules/apikeys/apikeys.service.ts',
    ]);
  });

  it('web layers: shared code never imports features, features never import each other, web never imports server', () => {
    expect(firing('web-shared-code-not-features')).toEqual(['apps/web/src/components/Card.tsx → apps/web/src/features/loads/LoadCard.tsx']);
    expect(firing('web-features-isolated')).toEqual([
      'apps/web/src/features/offers/OfferPanel.tsx → apps/web/src/features/loads/LoadCard.tsx',
      'apps/web/src/features/offers/ViaIndex.tsx → apps/web/src/features/trips/index.ts',
    ]);
    expect(firing('web-not-server')).toEqual(['apps/web/src/features/loads/LoadCard.tsx → apps/server/src/modules/loads/loads.service.ts']);
    expect(firing('shared-not-apps')).toEqual(['packages/shared/src/index.ts → apps/web/src/lib/a.ts']);
  });

  it('finds the import cycle', () => {
    const cycles = violations.filter((v) => v.rule === 'no-cycles');
    expect(cycles).toHaveLength(1);
    expect([cycles[0]?.from, cycles[0]?.to].sort()).toEqual(['apps/web/src/lib/a.ts', 'apps/web/src/lib/b.ts']);
  });
});
