/**
 * Types, permissions and pure ladder rules shared by the promotions plugins.
 *
 * @packageDocumentation
 */
export * from './annotations';
export * from './names';
export * from './permissions';
export * from './ladder/types';
export * from './promotions/types';
