// @ts-check

/**
 * `release_baselines`: a Release record's timeline (its digests per commit,
 * newest first, as many versions as the digest-age rule reads) read from
 * git once, where the delivery-metrics timelines do not hold its creation
 * (a record older than the plugin). `after_arrival_id` is the last digest
 * arrival recorded when git was read at the cursor's commit: the record's
 * later versions are its arrivals after it, so the rule reads no git
 * history for it again while the history read stays unbroken
 * (`metrics_cursor.complete_after_id` at most this).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('release_baselines', table => {
    table.string('team').notNullable();
    table.string('product').notNullable();
    table.string('stage').notNullable();
    table.integer('after_arrival_id').notNullable();
    table.text('timeline').notNullable().comment('JSON: the ReleaseTimeline read from git, newest first');
    table.string('read_at').notNullable();
    table.primary(['team', 'product', 'stage']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('release_baselines');
};
