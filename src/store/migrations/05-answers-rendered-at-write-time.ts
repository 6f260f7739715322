import { renderStoredAnswers } from '../notifications/backfill.js';
import type { Migration } from './migration.js';

export const answersRenderedAtWriteTime: Migration = {
  version: 5,
  name: 'answers rendered at write time',
  // notifications/get splices each notification's answer from text rendered when it was written
  // (answers/notifications.ts) instead of building it per read. Rows written before get theirs here,
  // rendered by the same code (key order follows JavaScript's rules, which SQL cannot reproduce).
  sqlite: `ALTER TABLE notifications ADD COLUMN answer TEXT NOT NULL DEFAULT '';`,
  postgres: `ALTER TABLE notifications ADD COLUMN answer text NOT NULL DEFAULT '';`,
  backfill: renderStoredAnswers,
};
