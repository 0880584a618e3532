import { sql } from "drizzle-orm";
import type { Database } from "../api/db/client";
import { demoProducts } from "../api/db/demo-data";
import { demoPictureAddress } from "../api/db/demo-art/pictures";

/*
 * `npm run bench -- --scale`: the store issue 18 sizes, added beside the demo catalogue in plain SQL
 * (generate_series, so it takes seconds, not minutes): 300 more products in the demo's categories with 3
 * options and 2 warranty prices each, 100,000 credentials over their options, 10,000 customers and 50,000
 * orders of one or two lines spread over them. Ids are fixed, valid public ids (22 characters), so the
 * rows are recognisable and seeding is done once per database.
 */

export const SCALE = { products: 300, optionsPerProduct: 3, credentials: 100_000, customers: 10_000, orders: 50_000 };

/** A 22-character id from a prefix and a number: 'sc' + kind letter + zero-padded number. */
const idOf = (kind: string, number: string) => sql.raw(`'sc${kind}' || lpad((${number})::text, 19, '0')`);

export async function seedAtScale(db: Database): Promise<void> {
  const { products, optionsPerProduct, credentials, customers, orders } = SCALE;
  const options = products * optionsPerProduct;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into products (id, title, label, description, picture, position)
      select ${idOf("p", "g")}, 'Scale plan ' || g, 'SCALE', 'A plan of the scaled store, number ' || g,
             ${demoPictureAddress(demoProducts[0])}, 1000 + g
      from generate_series(1, ${products}) g`);
    await tx.execute(sql`
      insert into product_categories (product_id, category_id)
      select ${idOf("p", "g")}, c.id
      from generate_series(1, ${products}) g
      join (select id, row_number() over (order by position, id) - 1 as n, count(*) over () as total from categories) c
        on c.n = g % c.total`);
    await tx.execute(sql`
      insert into product_options (id, product_id, title, position)
      select ${idOf("o", "g")}, ${idOf("p", `(g - 1) / ${optionsPerProduct} + 1`)}, 'Plan ' || ((g - 1) % ${optionsPerProduct} + 1),
             (g - 1) % ${optionsPerProduct}
      from generate_series(1, ${options}) g`);
    await tx.execute(sql`
      insert into warranty_durations (id, option_id, title, duration_days, price_cents, position)
      select ${idOf("w", "g")}, ${idOf("o", "(g + 1) / 2")},
             case when g % 2 = 1 then '1 Month' else '3 Months' end,
             case when g % 2 = 1 then 30 else 90 end,
             case when g % 2 = 1 then 399 + g % 500 else 999 + g % 900 end,
             (g + 1) % 2
      from generate_series(1, ${options * 2}) g`);
    await tx.execute(sql`
      insert into stock_credentials (id, option_id, username, password)
      select ${idOf("s", "g")}, ${idOf("o", `g % ${options} + 1`)}, 'scale' || g || '@mail.example', 'pw' || g
      from generate_series(1, ${credentials}) g`);
    await tx.execute(sql`
      insert into users (id, username, email, password_hash)
      select ${idOf("u", "g")}, 'scale_customer_' || g, 'scale_customer_' || g || '@example.com', 'not-a-password-hash'
      from generate_series(1, ${customers}) g`);
    await tx.execute(sql`
      insert into orders (id, user_id, email, status, subtotal_cents, price_cents, payment_method, created_at,
                          updated_at, paid_at)
      select ${idOf("r", "g")}, ${idOf("u", `g % ${customers} + 1`)},
             'scale_customer_' || (g % ${customers} + 1) || '@example.com',
             (array['completed', 'completed', 'pending', 'expired'])[g % 4 + 1],
             500 * (g % 2 + 1), 500 * (g % 2 + 1), 'balance',
             now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval,
             case when g % 4 < 2 then now() - (g || ' minutes')::interval end
      from generate_series(1, ${orders}) g`);
    await tx.execute(sql`
      insert into order_products (id, order_id, product_id, option_id, title, fulfil_mode, duration_days,
                                  unit_price_cents, quantity, price_cents, created_at)
      select ${idOf("l", "g * 2 + line")}, ${idOf("r", "g")},
             ${idOf("p", `(g + line) % ${products} + 1`)}, ${idOf("o", `((g + line) % ${products}) * ${optionsPerProduct} + 1`)},
             'Scale plan ' || ((g + line) % ${products} + 1), 'auto', 30, 500, 1, 500,
             now() - (g || ' minutes')::interval
      from generate_series(1, ${orders}) g
      cross join generate_series(0, 1) line
      where line = 0 or g % 2 = 1`);
  });
  await db.execute(sql`analyze`);
}
