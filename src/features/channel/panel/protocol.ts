import * as z from 'zod';
import { CommonPageMessageSchemas } from '../../../webviews/shared/pageMessages';

/** What the page may ask of the host. Anything else is rejected before the host acts. */
export const ChannelPostPageMessageSchema = z.discriminatedUnion('type', [
  ...CommonPageMessageSchemas,
  /** Posts a comment on the conversation's top item. */
  z.strictObject({ type: z.literal('reply'), body: z.string().max(100_000) }),
  z.strictObject({ type: z.literal('openInBrowser') }),
]);

export type ChannelPostPageMessage = z.infer<typeof ChannelPostPageMessageSchema>;

/** A post or a comment as the page shows it; every string is server text the page renders as text. */
export interface ChannelEntryView {
  mid: string;
  author: string;
  address: string;
  /** ISO date, or empty when the hub sent none. */
  created: string;
  title: string;
  /** The body with its BBCode markup turned into plain text. */
  text: string;
  /** Who may see it, in words. */
  audience: string;
  categories: string[];
  /** How deep a comment is nested (0: answers the post). */
  depth: number;
}

export type ChannelPostHostMessage =
  /** The whole conversation, in answer to `ready`. */
  | {
      type: 'snapshot';
      post: ChannelEntryView;
      comments: ChannelEntryView[];
      commentsClosed: boolean;
      canOpenInBrowser: boolean;
    }
  /** How a reply went; on failure the page keeps the text in its box. */
  | { type: 'replyResult'; ok: boolean; message: string };
