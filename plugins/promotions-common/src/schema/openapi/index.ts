/** The client generated from the backend's openapi.yaml, which every caller of `/api/promotions` uses. */
export * from './generated';
