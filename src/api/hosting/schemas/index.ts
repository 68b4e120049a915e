/**
 * Zod schemas and inferred types for every resource of the project-hosting v4 API.
 * Import from here, not from the individual files.
 */
export * from './common';
export * from './user';
export * from './project';
export * from './event';
export * from './pipeline';
export * from './job';
export * from './branch';
export * from './issue';
export * from './mergeRequest';
export * from './note';
export * from './awardEmoji';
export * from './board';
export * from './trigger';
export * from './systemHook';
export * from './todo';
export * from './broadcastMessage';
export * from './ciTemplate';
export * from './sshKey';
export * from './ciLint';
