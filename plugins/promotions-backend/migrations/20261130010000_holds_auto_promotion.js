// @ts-check

/**
 * Holds (a stage frozen for a service, e.g. after a rollback), the
 * auto-promoter's decisions per run, and since when a digest has been
 * healthy in a stage (for soak times).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('holds', table => {
    table.increments('id');
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('stage').notNullable();
    table.string('service').notNullable();
    table.text('reason').notNullable();
    table.string('placed_by').notNullable();
    table.string('placed_at').notNullable();
    table.string('lifted_by').nullable();
    table.string('lifted_at').nullable();
    // set while the hold is live: at most one live hold per stage and service
    table.string('live_key').nullable().unique();
    table.index(['team', 'product'], 'holds_product_idx');
  });
  await knex.schema.createTable('auto_promotion_decisions', table => {
    table.increments('id');
    table.string('run_id', 36).notNullable();
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('from_stage').notNullable();
    table.string('to_stage').notNullable();
    table.string('service').notNullable();
    table.string('decision').notNullable();
    table.text('reason').notNullable();
    table.string('digest').nullable();
    table.string('decided_at').notNullable();
    table.index(['team', 'product', 'decided_at'], 'auto_decisions_product_idx');
  });
  await knex.schema.createTable('healthy_since', table => {
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('stage').notNullable();
    table.string('service').notNullable();
    table.string('digest').notNullable();
    table.string('since').notNullable();
    table.primary(['team', 'product', 'stage', 'service']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('healthy_since');
  await knex.schema.dropTable('auto_promotion_decisions');
  await knex.schema.dropTable('holds');
};
