export * from './client';
export * from './endpoints';
export * from './schemas';
export * from './identity';
export * from './rebase';
export * from './descriptionTemplates';
export * from './awardToggle';
