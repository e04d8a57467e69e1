// Architecture boundaries (issue 6, docs/architecture.md "Boundaries"), checked by
// dependency-cruiser on the real module graph (TypeScript-aware, type-only imports seen as such).
// `npm run lint` runs it; tools/boundaries/fixtures holds one file that breaks each rule and
// tools/boundaries/boundaries.test.ts proves every rule fires on it.
//
// Paths are relative to the cruise's base directory (the repository root, or the fixture root).

/** Server files that may hold SQL: repositories, the database layer, the SQL helpers, tests. */
const MAY_HOLD_SQL = [
  '\\.repository\\.ts$',
  '^apps/server/src/db/',
  '^apps/server/src/lib/sql\\.ts$',
  // cross-module transaction infrastructure: per-account cap locks and the Idempotency-Key journal
  // that every committed transaction of a keyed request writes (issue 22)
  '^apps/server/src/lib/(locks|tx-journal)\\.ts$',
  '\\.test\\.ts$',
  '\\.testkit\\.ts$',
  '^apps/server/test/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles anywhere (type-only imports included: a cycle of types still couples the modules).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment: 'SQL lives in repositories: services, routes, plugins, jobs and the CLI never import drizzle (not even its types) or the schema.',
      from: { path: '^apps/server/src/', pathNot: MAY_HOLD_SQL },
      to: { path: ['(^|/)node_modules/drizzle-orm/', '^apps/server/src/db/schema/'] },
    },
    {
      name: 'module-owns-its-repository',
      severity: 'error',
      comment: "A server module never calls another module's repository: it calls that module's service (each table has one owning module).",
      from: { path: '^apps/server/src/modules/([^/]+)/' },
      to: { path: '^apps/server/src/modules/[^/]+/[^/]+\\.repository\\.ts$', pathNot: '^apps/server/src/modules/$1/' },
    },
    {
      name: 'modules-meet-through-ports',
      severity: 'error',
      comment:
        "A server module never calls another module's code at run time (issue 51): it declares the functions it needs as a port (its deps.ts/ports.ts or its service's deps type) and the composition root (container.ts) wires the providing module's function in. Type-only imports are fine, and so are tests and testkits.",
      from: {
        path: '^apps/server/src/modules/([^/]+)/',
        pathNot: ['\\.test\\.ts$', '\\.testkit\\.ts$'],
      },
      to: {
        path: '^apps/server/src/modules/',
        pathNot: [
          '^apps/server/src/modules/$1/',
          // publish into the transactional outbox (and its replay/recipients helpers) is the shared
          // infrastructure every module writes its events through, by design (DESIGN §3)
          '^apps/server/src/modules/events/events\\.service\\.ts$',
          // who acts (`actingUser`): a pure one-line function beside the CurrentUser type every
          // module already imports; no I/O, no state
          '^apps/server/src/modules/auth/auth\\.types\\.ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'web-shared-code-not-features',
      severity: 'error',
      comment: 'Web components/ and lib/ are shared by features, so they never import a feature.',
      from: { path: '^apps/web/src/(components|lib)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'web-features-isolated',
      severity: 'error',
      comment:
        'No web feature imports another (issue 18), not even its index.ts: features/X imports components/, lib/, i18n/, app/ and itself. Move what two features share to components/ or lib/; a panel one feature lends to another feature’s page is a slot (components/slots.tsx) that app/slots.ts fills.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The web app never imports server code; what both need lives in packages/shared.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'shared-not-apps',
      severity: 'error',
      comment: 'packages/shared is used by both apps and imports neither.',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/'] },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
