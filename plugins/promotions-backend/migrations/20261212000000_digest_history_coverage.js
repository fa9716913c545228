// @ts-check

/**
 * `metrics_cursor.complete_after_id`: the digest arrivals with a larger id
 * were read from an unbroken stretch of the branch's first-parent history,
 * up to the cursor. A backfill that stopped at its limit, or a commit whose
 * changed files GitHub listed only in part, leaves a stretch unread; the
 * cursor then moves this past every arrival recorded before it. A Release
 * record created after it has its whole history in `digest_arrivals`, and
 * the auto-promoter's digest-age rule reads it there instead of from
 * GitHub. 0: nothing was ever left unread.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('metrics_cursor', table => {
    table.integer('complete_after_id').notNullable().defaultTo(0);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('metrics_cursor', table => {
    table.dropColumn('complete_after_id');
  });
};
