import type { Migration } from './migration.js';

export const commentReactions: Migration = {
  version: 45,
  name: 'reactions on comments',
  // docs/decisions.md "Reactions (issue 41)". A row per comment, icon and user: adding it again is one row (the key),
  // and the reactions of a comment are one range of the key. A comment's delete takes its reactions with it, and a
  // comment moving to another document (document migration) moves them, by triggers: every path that deletes or
  // moves comments (comments/delete, threads, documents, organizations, locations, erasure, retention) then keeps
  // them whole without knowing of reactions. by_user: users/data/get and the erasure read a user's reactions.
  sqlite: `
CREATE TABLE comment_reactions (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  comment_id       INTEGER NOT NULL,
  icon             TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, comment_id, icon, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX comment_reactions_by_user
  ON comment_reactions (tenant_id, organization_id, user_id, document_id, annotation_id, comment_id, icon);
CREATE TRIGGER comments_delete_reactions AFTER DELETE ON comments BEGIN
  DELETE FROM comment_reactions WHERE tenant_id = OLD.tenant_id AND organization_id = OLD.organization_id
    AND document_id = OLD.document_id AND annotation_id = OLD.annotation_id AND comment_id = OLD.comment_id;
END;
CREATE TRIGGER comments_move_reactions AFTER UPDATE OF document_id ON comments
  WHEN NEW.document_id IS NOT OLD.document_id BEGIN
  UPDATE comment_reactions SET document_id = NEW.document_id WHERE tenant_id = OLD.tenant_id
    AND organization_id = OLD.organization_id AND document_id = OLD.document_id AND annotation_id = OLD.annotation_id
    AND comment_id = OLD.comment_id;
END;
`,
  postgres: `
CREATE TABLE comment_reactions (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C" NOT NULL,
  comment_id       integer NOT NULL,
  icon             text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  created_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, comment_id, icon, user_id)
);
CREATE INDEX comment_reactions_by_user
  ON comment_reactions (tenant_id, organization_id, user_id, document_id, annotation_id, comment_id, icon);
CREATE FUNCTION comments_delete_reactions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  DELETE FROM comment_reactions r USING old_rows o
    WHERE r.tenant_id = o.tenant_id AND r.organization_id = o.organization_id AND r.document_id = o.document_id
      AND r.annotation_id = o.annotation_id AND r.comment_id = o.comment_id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER comments_delete_reactions AFTER DELETE ON comments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION comments_delete_reactions();
CREATE FUNCTION comments_move_reactions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  UPDATE comment_reactions SET document_id = NEW.document_id WHERE tenant_id = OLD.tenant_id
    AND organization_id = OLD.organization_id AND document_id = OLD.document_id AND annotation_id = OLD.annotation_id
    AND comment_id = OLD.comment_id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER comments_move_reactions AFTER UPDATE OF document_id ON comments FOR EACH ROW
  WHEN (NEW.document_id IS DISTINCT FROM OLD.document_id) EXECUTE FUNCTION comments_move_reactions();
`,
};
