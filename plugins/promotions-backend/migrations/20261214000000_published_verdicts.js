// @ts-check

/**
 * The Gate's published verdicts as typed JSON (issue 46), no longer strings to split:
 * - `health_state`: `{"state","sha","description"}` (was `"state:sha:description"`, whose
 *   description, holding colons itself, was cut at the first one where it was read);
 * - `guard_state`: guard name → `{"state","sha","description"}`, names in order (was guard
 *   name → `"state:sha:description"`).
 * The store compares these columns as text in its compare-and-set, so each is written with its
 * fields in one order, as the store writes them. `health_state` becomes `text`: a JSON verdict
 * with a long description does not fit PostgreSQL's `varchar(255)`.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  if (knex.client.config.client === 'pg') {
    await knex.schema.alterTable('promotions', table => {
      table.text('health_state').nullable().alter();
    });
  }
  const verdict = (/** @type {string} */ text) => {
    const [state, sha, ...description] = text.split(':');
    return { state, sha: sha ?? '', description: description.join(':') };
  };
  await rewrite(knex, {
    health: text => JSON.stringify(verdict(text)),
    guards: text => {
      const old = /** @type {Record<string, string>} */ (JSON.parse(text));
      const names = Object.keys(old).sort();
      return `{${names.map(name => `${JSON.stringify(name)}:${JSON.stringify(verdict(old[name]))}`).join(',')}}`;
    },
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  const text = (/** @type {{state: string, sha: string, description: string}} */ v) => `${v.state}:${v.sha}:${v.description}`;
  await rewrite(knex, {
    health: json => text(JSON.parse(json)),
    guards: json => {
      const verdicts = JSON.parse(json);
      return JSON.stringify(Object.fromEntries(Object.entries(verdicts).map(([name, v]) => [name, text(/** @type {any} */ (v))])));
    },
  });
};

/**
 * Rewrites every promotion's health_state and guard_state that is set, a page of rows at a time.
 *
 * @param {import('knex').Knex} knex
 * @param {{ health: (value: string) => string, guards: (value: string) => string }} convert
 */
async function rewrite(knex, convert) {
  const PAGE = 500;
  for (let after = ''; ; ) {
    const rows = await knex('promotions')
      .select('id', 'health_state', 'guard_state')
      .where('id', '>', after)
      .andWhere(q => q.whereNotNull('health_state').orWhereNotNull('guard_state'))
      .orderBy('id')
      .limit(PAGE);
    for (const row of rows) {
      await knex('promotions')
        .where('id', row.id)
        .update({
          health_state: row.health_state ? convert.health(row.health_state) : null,
          guard_state: row.guard_state ? convert.guards(row.guard_state) : null,
        });
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}
