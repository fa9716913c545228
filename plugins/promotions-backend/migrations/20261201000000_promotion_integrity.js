// @ts-check

/**
 * What keeps a promotion honest across crashes, replicas and pushes to its
 * branch:
 * - `lease_expires_at`: while no PR is recorded, when the request opening it
 *   stops being trusted to finish (then the Gate or a retry reconciles it
 *   from GitHub);
 * - `head_sha`: the PR head whose content the plugin wrote or last verified;
 * - `approved_sha`: the PR head an approval was given for (a moved head
 *   voids the approval).
 * `branch` is now written with the promotion, before the branch exists, and
 * indexed so the reconciler can tell whose a leftover branch was.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.string('lease_expires_at').nullable();
    table.string('head_sha').nullable();
    table.string('approved_sha').nullable();
    table.index(['branch'], 'promotions_branch_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.dropIndex(['branch'], 'promotions_branch_idx');
    table.dropColumn('approved_sha');
    table.dropColumn('head_sha');
    table.dropColumn('lease_expires_at');
  });
};
