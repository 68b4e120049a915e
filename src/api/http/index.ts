export * from './errors';
export * from './linkHeader';
export * from './pagination';
export * from './redact';
export * from './transport';
export * from './validate';
export * from './download';
export * from './dispatcher';
