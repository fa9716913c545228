// @ts-check

/**
 * Promotion guards:
 * - `guard_state`: the guards' verdicts last published on the PR head (JSON,
 *   guard name → "state:sha:description"), so each change is published and
 *   recorded once;
 * - `guard_override`: a release-approver's override of the guards' blocks
 *   (JSON `{by, reason}`).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.text('guard_state').nullable();
    table.text('guard_override').nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.dropColumn('guard_override');
    table.dropColumn('guard_state');
  });
};
