// @ts-check

/**
 * `queued_at`: a promotion the auto-promoter decided waits in the write queue
 * for its PR to be opened (GitHub's write limit paces bulk work); an opener
 * takes it by clearing this and taking a lease in one update.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.string('queued_at').nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.dropColumn('queued_at');
  });
};
