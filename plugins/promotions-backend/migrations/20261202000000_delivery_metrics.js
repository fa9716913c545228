// @ts-check

/**
 * Delivery metrics, read from the platform branch's history:
 * - `digest_arrivals`: per Product, stage and Service, each digest the
 *   Release record took, when (the commit's time) and through which commit,
 *   PR and promotion;
 * - `metrics_cursor`: per watched branch, the last commit read, so a
 *   restart resumes there and each commit is read once.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('digest_arrivals', table => {
    table.increments('id');
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('stage').notNullable();
    table.string('service').notNullable();
    table.string('digest').notNullable();
    table.string('arrived_at').notNullable();
    table.string('commit_sha', 40).notNullable();
    table.integer('pr_number').nullable();
    table.string('promotion_id', 36).nullable();
    table.index(['team', 'product'], 'digest_arrivals_product_idx');
  });
  await knex.schema.createTable('metrics_cursor', table => {
    table.string('branch').primary();
    table.string('commit_sha', 40).notNullable();
    table.string('read_at').notNullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('metrics_cursor');
  await knex.schema.dropTable('digest_arrivals');
};
