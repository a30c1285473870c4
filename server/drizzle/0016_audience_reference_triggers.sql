ALTER TABLE "contacts" DROP CONSTRAINT "contacts_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "list_memberships" DROP CONSTRAINT "list_memberships_list_id_lists_id_fk";
--> statement-breakpoint
ALTER TABLE "list_memberships" DROP CONSTRAINT "list_memberships_contact_id_contacts_id_fk";
--> statement-breakpoint
-- The three foreign keys above become statement-level triggers with the same rules (a contact belongs to an
-- existing account, a membership to an existing list and contact; deleting an account deletes its contacts,
-- deleting a list or a contact deletes its memberships; a referenced id cannot change). A declared foreign key
-- checks each inserted row with its own query and locks the referenced row FOR KEY SHARE, per row: for a bulk
-- import that was ~40% of the database time (the contact a membership points to was inserted a moment before
-- by the same statement, and locking it is a heap write and a WAL record per row). These check a statement's
-- rows at once, lock each referenced account and list once, and lock only the contacts another transaction
-- could delete (not those the current transaction inserted), as a foreign key would, so a concurrent delete
-- still either waits for the insert and then cascades to it, or makes it fail. Errors use SQLSTATE 23503.
CREATE FUNCTION "contacts_check_account"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted int;
  got int;
BEGIN
  SELECT count(DISTINCT account_id) INTO wanted FROM new_contacts;
  PERFORM 1 FROM accounts a WHERE a.id IN (SELECT account_id FROM new_contacts) FOR KEY SHARE OF a;
  GET DIAGNOSTICS got = ROW_COUNT;
  IF got < wanted THEN
    RAISE EXCEPTION 'insert or update on table "contacts" violates foreign key constraint "contacts_account_id_accounts_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'contacts', CONSTRAINT = 'contacts_account_id_accounts_id_fk';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_account_ref_ins" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION "contacts_check_account"();
--> statement-breakpoint
CREATE FUNCTION "list_memberships_check_refs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted int;
  got int;
  total int;
  others uuid[];
BEGIN
  SELECT count(DISTINCT list_id), count(*) INTO wanted, total FROM new_memberships;
  PERFORM 1 FROM lists l WHERE l.id IN (SELECT list_id FROM new_memberships) FOR KEY SHARE OF l;
  GET DIAGNOSTICS got = ROW_COUNT;
  IF got < wanted THEN
    RAISE EXCEPTION 'insert or update on table "list_memberships" violates foreign key constraint "list_memberships_list_id_lists_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'list_memberships', CONSTRAINT = 'list_memberships_list_id_lists_id_fk';
  END IF;
  -- Every row's contact exists; those the current transaction did not insert are then locked like a foreign key
  -- locks them (a contact deleted meanwhile by a committed transaction is not locked: the insert fails).
  SELECT count(*), array_agg(DISTINCT c.id) FILTER (WHERE c.xmin <> pg_current_xact_id()::xid) INTO got, others
    FROM new_memberships m JOIN contacts c ON c.id = m.contact_id;
  IF got = total AND others IS NOT NULL THEN
    PERFORM 1 FROM contacts c WHERE c.id = ANY (others) FOR KEY SHARE OF c;
    GET DIAGNOSTICS got = ROW_COUNT;
    got := CASE WHEN got = cardinality(others) THEN total ELSE -1 END;
  END IF;
  IF got < total THEN
    RAISE EXCEPTION 'insert or update on table "list_memberships" violates foreign key constraint "list_memberships_contact_id_contacts_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'list_memberships', CONSTRAINT = 'list_memberships_contact_id_contacts_id_fk';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "list_memberships_refs_ins" AFTER INSERT ON "list_memberships" REFERENCING NEW TABLE AS new_memberships
  FOR EACH STATEMENT EXECUTE FUNCTION "list_memberships_check_refs"();
--> statement-breakpoint
-- A reference changed by an update (never done by the application) is checked row by row, as a foreign key would.
CREATE FUNCTION "audience_check_updated_ref"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'contacts' THEN
    PERFORM 1 FROM accounts WHERE id = NEW.account_id FOR KEY SHARE;
  ELSE
    PERFORM 1 FROM lists WHERE id = NEW.list_id FOR KEY SHARE;
    IF FOUND THEN
      PERFORM 1 FROM contacts WHERE id = NEW.contact_id FOR KEY SHARE;
    END IF;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "%" violates a foreign key reference', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_account_ref_upd" AFTER UPDATE OF "account_id" ON "contacts" FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION "audience_check_updated_ref"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_refs_upd" AFTER UPDATE OF "list_id", "contact_id" ON "list_memberships" FOR EACH ROW
  WHEN (OLD.list_id IS DISTINCT FROM NEW.list_id OR OLD.contact_id IS DISTINCT FROM NEW.contact_id)
  EXECUTE FUNCTION "audience_check_updated_ref"();
--> statement-breakpoint
CREATE FUNCTION "accounts_delete_contacts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contacts c WHERE c.account_id IN (SELECT id FROM old_accounts);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_delete_contacts" AFTER DELETE ON "accounts" REFERENCING OLD TABLE AS old_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION "accounts_delete_contacts"();
--> statement-breakpoint
CREATE FUNCTION "lists_delete_memberships"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_memberships m WHERE m.list_id IN (SELECT id FROM old_lists);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "lists_delete_memberships" AFTER DELETE ON "lists" REFERENCING OLD TABLE AS old_lists
  FOR EACH STATEMENT EXECUTE FUNCTION "lists_delete_memberships"();
--> statement-breakpoint
CREATE FUNCTION "contacts_delete_memberships"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_memberships m WHERE m.contact_id IN (SELECT id FROM old_contacts);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_delete_memberships" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION "contacts_delete_memberships"();
--> statement-breakpoint
-- A referenced id cannot change (a foreign key's ON UPDATE NO ACTION); ids are never updated, this only guards.
CREATE FUNCTION "audience_refuse_referenced_id_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  referenced boolean;
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    referenced := EXISTS (SELECT 1 FROM contacts WHERE account_id = OLD.id);
  ELSIF TG_TABLE_NAME = 'lists' THEN
    referenced := EXISTS (SELECT 1 FROM list_memberships WHERE list_id = OLD.id);
  ELSE
    referenced := EXISTS (SELECT 1 FROM list_memberships WHERE contact_id = OLD.id);
  END IF;
  IF referenced THEN
    RAISE EXCEPTION 'update on table "%" violates a foreign key reference to it', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_id_referenced" AFTER UPDATE OF "id" ON "accounts" FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "audience_refuse_referenced_id_change"();
--> statement-breakpoint
CREATE TRIGGER "lists_id_referenced" AFTER UPDATE OF "id" ON "lists" FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "audience_refuse_referenced_id_change"();
--> statement-breakpoint
CREATE TRIGGER "contacts_id_referenced" AFTER UPDATE OF "id" ON "contacts" FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "audience_refuse_referenced_id_change"();
