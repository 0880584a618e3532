-- Privacy (issue 29, ADR 044): a deleted account stays as a tombstone row (deleted_at set, no name, address or password).
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- The audit log stays append-only. Two narrow exceptions, each a function owned by the schema's owner (the app role
-- still may not UPDATE the table): cutting addresses older than the retention window to their network, and taking a
-- deleted customer's name and address out of the entries about them. The trigger lets an update through only while
-- one of them runs, and only when what was done, by whom, to which object and when stays as it was.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE'
		AND coalesce(current_setting('store.audit_redaction', true), '') = 'on'
		AND NEW.id = OLD.id
		AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id
		AND NEW.actor_email = OLD.actor_email
		AND NEW.actor_role = OLD.actor_role
		AND NEW.action = OLD.action
		AND NEW.object_type = OLD.object_type
		AND NEW.object_id = OLD.object_id
		AND NEW.created_at = OLD.created_at THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'audit_log is append-only';
END
$$;--> statement-breakpoint
-- An address as its network: 203.0.113.7 -> 203.0.113.0/24, an IPv6 one -> its /48; anything else -> ''.
CREATE FUNCTION "store_address_network"("address" text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF "address" ~ '^[0-9]{1,3}(\.[0-9]{1,3}){3}$' THEN
		RETURN network(set_masklen("address"::inet, 24))::text;
	ELSIF "address" ~ '^[0-9A-Fa-f:.]+$' AND position(':' in "address") > 0 THEN
		RETURN network(set_masklen("address"::inet, 48))::text;
	END IF;
	RETURN '';
EXCEPTION WHEN others THEN
	RETURN '';
END
$$;--> statement-breakpoint
CREATE FUNCTION "audit_log_cut_addresses"("cutoff" timestamp with time zone) RETURNS integer LANGUAGE plpgsql
SECURITY DEFINER SET search_path = public AS $$
DECLARE
	changed integer;
BEGIN
	PERFORM set_config('store.audit_redaction', 'on', true);
	UPDATE "audit_log" SET "ip" = store_address_network("ip")
		WHERE "created_at" < "cutoff" AND "ip" <> '' AND position('/' in "ip") = 0;
	GET DIAGNOSTICS changed = ROW_COUNT;
	PERFORM set_config('store.audit_redaction', 'off', true);
	RETURN changed;
END
$$;--> statement-breakpoint
-- Replaces each of "words" (a deleted customer's address and name), in any letter case, in the label and changes of
-- the entries about "object" or mentioning a word; answers how many entries changed.
CREATE FUNCTION "audit_log_forget"("object" text, "words" text[]) RETURNS integer LANGUAGE plpgsql
SECURITY DEFINER SET search_path = public AS $$
DECLARE
	pattern text;
	changed integer;
BEGIN
	SELECT string_agg(regexp_replace(word, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g'), '|') INTO pattern
		FROM unnest("words") AS word WHERE word <> '';
	IF pattern IS NULL THEN
		RETURN 0;
	END IF;
	PERFORM set_config('store.audit_redaction', 'on', true);
	UPDATE "audit_log" SET
		"object_label" = CASE WHEN "object_id" = "object" THEN 'Deleted customer'
			ELSE regexp_replace("object_label", pattern, '[deleted]', 'gi') END,
		"changes" = regexp_replace("changes"::text, pattern, '[deleted]', 'gi')::jsonb
		WHERE "object_id" = "object" OR "object_label" ~* pattern OR "changes"::text ~* pattern;
	GET DIAGNOSTICS changed = ROW_COUNT;
	PERFORM set_config('store.audit_redaction', 'off', true);
	RETURN changed;
END
$$;
