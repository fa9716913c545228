// @ts-check

/**
 * `rejection`: who rejected a promotion (their entity ref) and why (JSON
 * `{by, reason}`), so screens name them as the catalog does rather than read
 * the reason's text. Promotions rejected before get theirs from the audit
 * trail's `rejected` event, while they are still closed by it.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.text('rejection').nullable();
  });
  const rejected = await knex('promotion_events')
    .join('promotions', 'promotions.id', 'promotion_events.promotion_id')
    .where({ 'promotion_events.type': 'rejected', 'promotions.status': 'closed' })
    .select('promotion_events.promotion_id', 'promotion_events.actor', 'promotion_events.detail');
  for (const event of rejected) {
    await knex('promotions')
      .where({ id: event.promotion_id })
      .update({ rejection: JSON.stringify({ by: event.actor, reason: event.detail ?? '' }) });
  }
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('promotions', table => {
    table.dropColumn('rejection');
  });
};
