import type { TenderInviteStatus, TenderMode, TenderStatus } from '@masar/shared';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { money } from './types.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Tenders (migration 0107; issue 19 "Tendering"); owned by modules/tenders. */
export const tenders = pgTable('tenders', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  ownerId: uuid('owner_id').notNull(),
  mode: text('mode').$type<TenderMode>().notNull(),
  deadline: ts('deadline').notNull(),
  targetRate: money('target_rate'),
  stepMinutes: integer('step_minutes').notNull().default(30),
  postOnClose: boolean('post_on_close').notNull().default(false),
  status: text('status').$type<TenderStatus>().notNull().default('open'),
  awardedInviteId: uuid('awarded_invite_id'),
  closedAt: ts('closed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The carriers invited to a tender and their answers (migration 0107); owned by modules/tenders. */
export const tenderInvites = pgTable('tender_invites', {
  id: uuid('id').primaryKey(),
  tenderId: uuid('tender_id').notNull(),
  carrierId: uuid('carrier_id').notNull(),
  position: integer('position').notNull(),
  status: text('status').$type<TenderInviteStatus>().notNull(),
  amount: money('amount'),
  invitedAt: ts('invited_at'),
  answeredAt: ts('answered_at'),
  windowEndsAt: ts('window_ends_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
