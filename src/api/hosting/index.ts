export * from './client';
export * from './endpoints';
export * from './schemas';
