// @ts-check

/**
 * `github_writes`: when each backend process's GitHub writes were answered,
 * for an hour, so that the write budget of every replica counts the writes
 * of all of them (one identity's limit at GitHub).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('github_writes', table => {
    table.increments('id');
    table.string('budget').notNullable().comment('The GitHub host whose limit the write counts against');
    table.string('writer').notNullable().comment('The backend process that made it');
    table.bigInteger('at').notNullable().comment('When GitHub answered it (epoch ms)');
    table.index(['budget', 'at']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('github_writes');
};
