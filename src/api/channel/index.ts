export * from './client';
export * from './download';
export * from './endpoints';
export * from './errors';
export * from './schemas';
export * from './streams';
