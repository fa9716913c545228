// @ts-check

/**
 * `github_write_budgets`: one row per GitHub host whose write budget the
 * replicas share. A replica claiming a write updates its budget's row
 * first, inside the claim's transaction: the database then lets one claim
 * at a time read `github_writes` and add to it, so that two replicas
 * claiming in the same instant each see the other's write.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('github_write_budgets', table => {
    table.string('budget').primary().comment('The GitHub host whose limit the writes count against');
    table.bigInteger('claimed_at').nullable().comment('When a write was last claimed (epoch ms)');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('github_write_budgets');
};
