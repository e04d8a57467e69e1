import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Business documents (migration 0076); owned by modules/verification. */
export const verificationDocuments = pgTable(
  'verification_documents',
  {
    userId: uuid('user_id').notNull(),
    type: text('type').notNull(),
    fileId: uuid('file_id').notNull(),
    state: text('state').notNull().$type<'submitted' | 'approved' | 'rejected'>(),
    reason: text('reason'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

export const verificationReviews = pgTable('verification_reviews', {
  userId: uuid('user_id').primaryKey(),
  submittedAt: ts('submitted_at'),
  decidedAt: ts('decided_at'),
  decision: text('decision').$type<'approved' | 'rejected'>(),
  reason: text('reason'),
});
