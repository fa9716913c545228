// Generated from plugins/promotions-backend/src/schema/openapi.yaml by its generate.js: do not edit.
/* eslint-disable */
export * from './models';
export * from './DefaultApi.client';
