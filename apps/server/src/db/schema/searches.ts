import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Saved searches (migration 0109); owned by modules/searches. `filterKey`: SHA-256 of the normalised filters. */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    /** 'loads' | 'trucks'. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    filters: jsonb('filters').notNull(),
    filterKey: text('filter_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_searches_user_filters').on(t.userId, t.kind, t.filterKey),
    index('saved_searches_user_list').on(t.userId, t.kind, t.createdAt.desc(), t.id.desc()),
  ],
);

/** The last searches a user ran, per kind (migration 0109); owned by modules/searches. */
export const recentSearches = pgTable(
  'recent_searches',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    filters: jsonb('filters').notNull(),
    filterKey: text('filter_key').notNull(),
    usedAt: ts('used_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('recent_searches_user_filters').on(t.userId, t.kind, t.filterKey),
    index('recent_searches_user_used').on(t.userId, t.kind, t.usedAt.desc(), t.id.desc()),
  ],
);
