-- An order line never holds more reserved credentials than its quantity (issue 25 item 13, ADR 036): whatever
-- reserves stock for a line (a checkout, a late payment's delivery, a retry of either), a reservation past the
-- quantity makes the transaction fail instead of holding a credential twice. Lines that do not exist yet (a
-- replacement's, made right after its credential is claimed) are not checked: they hold one, delivered at once.
CREATE FUNCTION "stock_reservations_within_quantity"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	line_quantity integer;
	held bigint;
BEGIN
	-- Two transactions adding to one line take turns, so neither counts without the other's reservations.
	PERFORM pg_advisory_xact_lock(7400003, hashtext(NEW.order_product_id));
	SELECT quantity INTO line_quantity FROM order_products WHERE id = NEW.order_product_id;
	IF line_quantity IS NULL THEN
		RETURN NULL;
	END IF;
	SELECT count(*) INTO held FROM stock_credentials
		WHERE order_product_id = NEW.order_product_id AND status = 'reserved';
	IF held > line_quantity THEN
		RAISE EXCEPTION 'order line % would hold % reserved credentials for a quantity of %',
			NEW.order_product_id, held, line_quantity
			USING ERRCODE = 'check_violation', CONSTRAINT = 'stock_reservations_within_quantity';
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "stock_reservations_within_quantity" AFTER INSERT OR UPDATE OF "status", "order_product_id" ON "stock_credentials" FOR EACH ROW WHEN (NEW."status" = 'reserved') EXECUTE FUNCTION "stock_reservations_within_quantity"();
