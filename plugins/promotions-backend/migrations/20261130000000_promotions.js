// @ts-check

/**
 * Promotions and their append-only audit trail.
 * `open_key` (team/product/toStage) is set only while a promotion is live;
 * its unique index is what makes concurrent requests — across replicas —
 * end in one promotion per target stage.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('promotions', table => {
    table.string('id', 36).primary();
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('from_stage').notNullable();
    table.string('to_stage').notNullable();
    table.text('services').notNullable();
    table.text('previous_services').notNullable();
    table.string('fingerprint', 64).notNullable();
    table.string('kind').notNullable().defaultTo('promotion');
    table.string('status').notNullable();
    table.text('status_reason').nullable();
    table.string('requested_by').notNullable();
    table.string('approved_by').nullable();
    table.integer('pr_number').nullable();
    table.text('pr_url').nullable();
    table.string('branch').nullable();
    table.string('base_blob_sha').nullable();
    table.string('health_state').nullable();
    table.string('open_key').nullable().unique();
    table.string('created_at').notNullable();
    table.string('updated_at').notNullable();
    table.index(['team', 'product'], 'promotions_product_idx');
  });
  await knex.schema.createTable('promotion_events', table => {
    table.increments('id');
    table.string('promotion_id', 36).notNullable().references('id').inTable('promotions');
    table.string('type').notNullable();
    table.string('actor').notNullable();
    table.string('at').notNullable();
    table.text('detail').nullable();
    table.index(['promotion_id'], 'promotion_events_promotion_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('promotion_events');
  await knex.schema.dropTable('promotions');
};
