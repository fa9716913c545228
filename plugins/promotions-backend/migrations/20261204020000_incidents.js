// @ts-check

/**
 * Incidents reported for Products (`promotions.incidents`): one row per
 * Product and incident id, so a report delivered twice or to several
 * replicas changes nothing, and a restart keeps what is open. A resolved
 * incident stays, marked, for the trail.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('incidents', table => {
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('incident_id').notNullable();
    table.text('url').notNullable();
    table.string('state').notNullable();
    table.string('opened_at').notNullable();
    table.string('resolved_at').nullable();
    table.primary(['team', 'product', 'incident_id']);
    table.index(['team', 'product', 'state'], 'incidents_product_state_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('incidents');
};
