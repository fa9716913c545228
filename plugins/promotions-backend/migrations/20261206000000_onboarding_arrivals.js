// @ts-check

/**
 * Marks the arrivals of a commit that created a stage's Release record (a
 * Product onboarded there): delivery metrics keep them as history but count
 * them as no deployment, lead time or change. Rows read before this column
 * existed stay unmarked.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('digest_arrivals', table => {
    table.boolean('onboarding').notNullable().defaultTo(false);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('digest_arrivals', table => {
    table.dropColumn('onboarding');
  });
};
