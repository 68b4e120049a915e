/** What a post says: typed, from the selection, or a file (text, or an image sent as media). */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import * as vscode from 'vscode';
import type { ItemMedia } from '../../api/channel';
import { firstTextLine, looksLikeText } from '../../domain/channel';
import { checkNoteBody, problemOf } from '../../domain/inputValidation';
import { type ChannelDraft } from '../../state/channelDrafts';
import { askText, pickOne } from '../../platform/userMessages';
import { ownEntry } from '../../domain/ownEntry';

/** Text files up to this size become the post's body; larger or binary ones are attached. */
const MAX_TEXT_FILE_BYTES = 256 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain',
};

export interface PostContent {
  body: string;
  media?: ItemMedia;
  mimetype?: string;
  /** "the selection in notes.md", for messages and the draft. */
  source: string;
}

function mediaType(path: string): string {
  return ownEntry(MEDIA_TYPES, extname(path).toLowerCase()) ?? 'application/octet-stream';
}

/** A file as a post: its text as the body, or (binary or large) attached as media. */
export async function contentFromFile(path: string, body: string | undefined): Promise<PostContent> {
  const name = basename(path);
  const size = (await stat(path)).size;
  if (size <= MAX_TEXT_FILE_BYTES) {
    const bytes = await readFile(path);
    if (looksLikeText(bytes) && body === undefined) {
      const markdown = /\.(md|markdown)$/i.test(name);
      return {
        body: bytes.toString('utf8'),
        mimetype: markdown ? 'text/markdown' : undefined,
        source: vscode.l10n.t('the file {0}', name),
      };
    }
  }
  return {
    body: body ?? name,
    media: { path, filename: name, contentType: mediaType(path) },
    source: vscode.l10n.t('the file {0} (attached)', name),
  };
}

export function contentFromSelection(): PostContent | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const text = editor.selections
    .map((selection) => editor.document.getText(selection))
    .filter((each) => each.trim() !== '')
    .join('\n\n');
  if (text.trim() === '') return undefined;
  return {
    body: text,
    mimetype: editor.document.languageId === 'markdown' ? 'text/markdown' : undefined,
    source: vscode.l10n.t('the selection in {0}', basename(editor.document.fileName)),
  };
}

export async function askBody(title: string, value: string): Promise<string | undefined> {
  return askText({
    title,
    prompt: vscode.l10n.t('bbcode or plain text. Kept as a draft until the server has it.'),
    value,
    ignoreFocusOut: true,
    validateInput: (text) => problemOf(checkNoteBody(text)),
  });
}

/** Asks where the post's text comes from (interactive). */
export async function askContent(
  draft: ChannelDraft | undefined,
): Promise<{ content: PostContent; fromDraft: boolean } | undefined> {
  const selection = contentFromSelection();
  type Choice = {
    icon?: string;
    label: string;
    description?: string;
    what: 'draft' | 'selection' | 'file' | 'input';
  };
  const choices: Choice[] = [];
  if (draft) {
    choices.push({
      icon: 'history',
      label: vscode.l10n.t('Unsent post'),
      description: firstTextLine(draft.title || draft.body, 60),
      what: 'draft',
    });
  }
  if (selection)
    choices.push({
      icon: 'selection',
      label: vscode.l10n.t('Selection'),
      description: selection.source,
      what: 'selection',
    });
  choices.push(
    {
      icon: 'file',
      label: vscode.l10n.t('A file…'),
      description: vscode.l10n.t('text becomes the post; other files are attached'),
      what: 'file',
    },
    { icon: 'edit', label: vscode.l10n.t('Type it…'), what: 'input' },
  );
  const picked = await pickOne(choices, {
    title: vscode.l10n.t('Post to Channel'),
    placeHolder: vscode.l10n.t('What to post'),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  switch (picked.what) {
    case 'draft':
      return draft
        ? {
            content: { body: draft.body, source: draft.source ?? vscode.l10n.t('the unsent draft') },
            fromDraft: true,
          }
        : undefined;
    case 'selection':
      return selection ? { content: selection, fromDraft: false } : undefined;
    case 'file': {
      const files = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: vscode.l10n.t('Post'),
      });
      const file = files?.[0];
      return file ? { content: await contentFromFile(file.fsPath, undefined), fromDraft: false } : undefined;
    }
    case 'input': {
      const body = await askBody(vscode.l10n.t('Post to Channel'), '');
      return body === undefined
        ? undefined
        : { content: { body, source: vscode.l10n.t('text typed in') }, fromDraft: false };
    }
  }
}

/** What posting and commenting return (tests and automation read it). */
export interface PostResult {
  posted: boolean;
  reason?: 'cancelled' | 'failed';
  itemId?: number;
  mid?: string;
  /** Who will see it, in words. */
  audience?: string;
  restoredDraft?: boolean;
  draftKept?: boolean;
  /** The server may have taken it (the connection broke after sending): look before sending again. */
  uncertain?: boolean;
  message?: string;
}
