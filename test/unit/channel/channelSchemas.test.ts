import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import {
  AlbumsReplySchema,
  AttachSchema,
  FiledataReplySchema,
  FileRecordSchema,
  FilesReplySchema,
  FlagSchema,
  GroupMemberSchema,
  IntLikeSchema,
  ItemSchema,
  ItemUpdateReplySchema,
  PermissionAllowedSchema,
  PrivacyGroupSchema,
  XchanSchema,
  isZeroDate,
} from '../../../src/api/channel/schemas';

const FIXTURES_DIR = path.join(__dirname, '..', '..', 'fixtures', 'channel-docs');
/** The shared original the copy above was made from; absent on machines outside the team's workspace. */
const SHARED_FIXTURES_DIR = path.join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'channel-docs',
);
const NON_FIXTURE_FILES = new Set(['MANIFEST.json', 'LICENSES.md']);

/** Every fixture file and the schema of the whole reply it is. A file missing here fails the suite. */
const FIXTURE_TABLE: Record<string, { schema: z.ZodType; endpoint: string }> = {
  'hz-doc-api_files.json': { schema: FilesReplySchema, endpoint: 'files' },
  'hz-doc-api_filedata.json': { schema: FiledataReplySchema, endpoint: 'filedata' },
  'hz-doc-api_albums.json': { schema: AlbumsReplySchema, endpoint: 'albums' },
  'hz-doc-group.json': { schema: z.array(PrivacyGroupSchema), endpoint: 'group' },
  'hz-doc-api_group_members.json': { schema: z.array(GroupMemberSchema), endpoint: 'group_members' },
  'hz-doc-api_xchan.json': { schema: XchanSchema, endpoint: 'xchan' },
  'hz-doc-api_item_update.json': { schema: ItemUpdateReplySchema, endpoint: 'item/update' },
};

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as unknown;
}

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !NON_FIXTURE_FILES.has(name))
    .sort();
}

/** The same payload as a current server sends it: digit-only strings as JSON numbers. */
function withNumbers(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  if (Array.isArray(value)) return value.map(withNumbers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withNumbers(entry)]));
  }
  return value;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

describe('channel schemas against the documented payloads', () => {
  it('has a table entry for every fixture file, and a file for every entry', () => {
    const files = fixtureFiles(FIXTURES_DIR);
    assert.deepEqual(files, Object.keys(FIXTURE_TABLE).sort(), 'fixture files and table entries differ');
  });

  it('records source, commit and licence of every fixture in MANIFEST.json and LICENSES.md', () => {
    const manifest = readJson('MANIFEST.json') as {
      file: string;
      license: string;
      commit: string;
      repo: string;
    }[];
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), Object.keys(FIXTURE_TABLE).sort());
    const licences = readFileSync(path.join(FIXTURES_DIR, 'LICENSES.md'), 'utf8');
    for (const entry of manifest) {
      assert.match(entry.license, /MIT/);
      assert.match(entry.commit, /^[0-9a-f]{40}$/);
      assert.ok(licences.includes(entry.file), `${entry.file} is not in LICENSES.md`);
    }
    assert.match(licences, /Permission is hereby granted, free of charge/);
  });

  if (existsSync(SHARED_FIXTURES_DIR)) {
    it('is an exact copy of the fixtures in ../shared', () => {
      assert.deepEqual(fixtureFiles(SHARED_FIXTURES_DIR), [...fixtureFiles(FIXTURES_DIR)].sort());
      for (const name of [...fixtureFiles(SHARED_FIXTURES_DIR), 'MANIFEST.json']) {
        assert.equal(
          readFileSync(path.join(FIXTURES_DIR, name), 'utf8'),
          readFileSync(path.join(SHARED_FIXTURES_DIR, name), 'utf8'),
          name,
        );
      }
    });
  }

  for (const [name, { schema, endpoint }] of Object.entries(FIXTURE_TABLE)) {
    it(`parses ${name} (${endpoint}) as older servers send it, all strings`, () => {
      const result = schema.safeParse(readJson(name));
      assert.ok(result.success, result.success ? '' : describeIssues(result.error));
    });

    it(`parses ${name} (${endpoint}) with integers as JSON numbers, as current servers send it`, () => {
      const result = schema.safeParse(withNumbers(readJson(name)));
      assert.ok(result.success, result.success ? '' : describeIssues(result.error));
    });
  }

  it('turns numbers sent as strings into numbers and 0/1 flags into booleans', () => {
    const files = FilesReplySchema.parse(readJson('hz-doc-api_files.json'));
    const folder = files.results[0];
    assert.ok(folder);
    assert.equal(folder.id, 1);
    assert.equal(folder.filesize, 0);
    assert.equal(folder.is_dir, true);
    assert.equal(folder.is_photo, false);
    assert.equal(folder.filename, 'Profile Photos');

    const albums = AlbumsReplySchema.parse(readJson('hz-doc-api_albums.json'));
    assert.deepEqual(
      albums.albums.map((album) => [album.text, album.total]),
      [
        ['/', 2],
        ['2016-01', 6],
        ['2016-02', 7],
        ['Cover Photos', 5],
        ['Profile Photos', 26],
      ],
    );

    const reply = ItemUpdateReplySchema.parse(readJson('hz-doc-api_item_update.json'));
    assert.equal(reply.item_id, 2245);
    assert.equal(reply.item.id, 2245);
    assert.equal(reply.item.parent, 2245);
    assert.equal(reply.item.item_wall, true);
    assert.equal(reply.item.body, 'hello world');
    assert.ok(isZeroDate(reply.item.expires));
  });

  it('reads a filedata chunk: start and length as integers, content as base64 of that many bytes', () => {
    const { attach } = FiledataReplySchema.parse(readJson('hz-doc-api_filedata.json'));
    assert.equal(attach.start, 0);
    assert.equal(attach.length, 48);
    assert.equal(attach.filesize, 3934);
    assert.equal(Buffer.from(attach.content, 'base64').length, 48);
    assert.match(Buffer.from(attach.content, 'base64').toString('latin1'), /^\/\* pcxtopbm\.c/);
  });

  it('keeps fields it does not check, untouched', () => {
    const xchan = XchanSchema.parse(readJson('hz-doc-api_xchan.json'));
    assert.equal(xchan.address, 'mike@macgirvin.com');
    assert.equal(xchan.hidden, true);
    assert.equal(typeof xchan['guid_sig'], 'string');
    const members = z.array(GroupMemberSchema).parse(readJson('hz-doc-api_group_members.json'));
    assert.ok(members.length > 0);
    assert.equal(members[0]?.['abook_my_perms'], '218555');
  });

  it('accepts null join columns of group members without an address-book entry', () => {
    const member = GroupMemberSchema.parse({
      id: '4',
      uid: '2',
      gid: '1',
      xchan: 'abc',
      abook_id: null,
      abook_self: null,
      xchan_hash: 'abc',
      xchan_name: 'Someone',
    });
    assert.equal(member.abook_id, null);
    assert.equal(member.gid, 1);
  });

  it('rejects numbers that are not integers and flags that are not flags', () => {
    assert.equal(IntLikeSchema.safeParse('12a').success, false);
    assert.equal(IntLikeSchema.safeParse('').success, false);
    assert.equal(IntLikeSchema.safeParse(1.5).success, false);
    assert.equal(IntLikeSchema.parse(' 42 '), 42);
    assert.equal(FlagSchema.parse('0'), false);
    assert.equal(FlagSchema.parse(1), true);
    assert.equal(FlagSchema.parse(true), true);
    assert.equal(FlagSchema.safeParse('yes').success, false);
    const record = {
      ...(readJson('hz-doc-api_files.json') as { results: Record<string, unknown>[] }).results[1],
    };
    record['filesize'] = 'big';
    assert.equal(FileRecordSchema.safeParse(record).success, false);
  });

  it('reads perm_allowed answers with booleans and with 0/1', () => {
    assert.deepEqual(PermissionAllowedSchema.parse({ perm: 'view_stream', allowed: true }), {
      perm: 'view_stream',
      allowed: true,
    });
    assert.equal(PermissionAllowedSchema.parse({ perm: 'chat', allowed: 0 }).allowed, false);
  });

  it('lets folder chunks come without start and length', () => {
    const { attach } = FiledataReplySchema.parse(readJson('hz-doc-api_filedata.json'));
    const folder: Record<string, unknown> = { ...attach, content: '', is_dir: '1' };
    delete folder['start'];
    delete folder['length'];
    const parsed = AttachSchema.parse(folder);
    assert.equal(parsed.is_dir, true);
    assert.equal(parsed.start, undefined);
    assert.equal(ItemSchema.safeParse({}).success, false);
  });
});
