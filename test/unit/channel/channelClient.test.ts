import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHANNEL_ENDPOINTS,
  ChannelAuthError,
  ChannelClient,
  ChannelDownloadError,
  ChannelReplyError,
  type ChunkedDownloadProgress,
  type ItemUpdateInput,
  type XchanLookup,
  streamItemKeys,
} from '../../../src/api/channel';
import { CancelledError, SchemaMismatchError, UncertainWriteError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';
import type { ChannelFixtures, StoredFile } from '../../server/channel';
import {
  CHANNEL_ENDPOINT_COUNT,
  channelRequests,
  exists,
  header,
  queryValue,
  rawRequest,
  rejectsWith,
  sha256,
  unexercisedChannelEndpoints,
} from './harness';

/**
 * ChannelClient against the fake channel server mounted in the fake forge: every endpoint of the registry
 * through its typed method, the real servers' habits (errors as 200 with an empty body or `false`, numbers
 * as strings, 401 with a text body), paging, item/update as a form and as multipart, and the chunked
 * download with progress, cancel, resume and the size check. The last test checks that every registry
 * entry was answered for real.
 */

const CHUNK = 64 * 1024;

describe('ChannelClient against the fake channel server', () => {
  let forge: FakeForge;
  let fx: ChannelFixtures;
  let client: ChannelClient;
  let tmp: string;
  const clients: ChannelClient[] = [];
  const logLines: string[] = [];
  /** Every error message of this file, checked for the password at the end. */
  const errorMessages: string[] = [];

  function create(login: string, password: string): ChannelClient {
    const created = ChannelClient.create({
      baseUrl: forge.url,
      login,
      password,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      log: (line) => logLines.push(line),
    });
    clients.push(created);
    return created;
  }

  async function failure<E extends Error>(
    promise: Promise<unknown>,
    type: abstract new (...args: never[]) => E,
    check?: (error: E) => void,
  ): Promise<E> {
    const error = await rejectsWith(promise, type, check);
    errorMessages.push(error.message);
    return error;
  }

  function storedFile(hash: string): StoredFile {
    const file = forge.channel.state.findFile(hash);
    assert.ok(file, `no file ${hash}`);
    return file;
  }

  before(async () => {
    forge = await startFakeForge();
    fx = forge.channel.fixtures;
    client = create(forge.channel.nickname, forge.channel.password);
    tmp = await mkdtemp(join(tmpdir(), 'channel-client-'));
  });

  after(async () => {
    await Promise.all(clients.map((each) => each.close()));
    await forge.close();
    await rm(tmp, { recursive: true, force: true });
  });

  afterEach(() => {
    forge.onRequest(undefined);
    forge.channel.state.numbers = 'strings';
    forge.clearRequests();
  });

  // ---- authentication ----------------------------------------------------------------------------

  describe('authentication', () => {
    it('signs in with HTTP Basic and the channel nickname', async () => {
      const groups = await client.listGroups();
      assert.equal(groups.length, 5);
      const [request] = channelRequests(forge, '/group');
      assert.ok(request);
      const expected = Buffer.from(`${forge.channel.nickname}:${forge.channel.password}`).toString('base64');
      assert.equal(header(request, 'authorization'), `Basic ${expected}`);
    });

    it('signs in with the account email too', async () => {
      const byEmail = create(forge.channel.email, forge.channel.password);
      assert.equal((await byEmail.listGroups()).length, 5);
    });

    it('turns a 401 into a ChannelAuthError that names the endpoint and never the password', async () => {
      const password = 'not-the-password-123';
      const wrong = create(forge.channel.nickname, password);
      const error = await failure(wrong.listFiles().toArray(), ChannelAuthError, (caught) => {
        assert.ok(caught instanceof ChannelReplyError);
        assert.equal(caught.problem, 'unauthorized');
        assert.equal(caught.endpoint, 'GET /files');
        assert.match(caught.message, /GET \/files/);
        assert.match(caught.message, /401/);
        assert.match(caught.message, /This api requires login/);
        assert.match(caught.message, /"wren"/);
      });
      const basic = Buffer.from(`${forge.channel.nickname}:${password}`).toString('base64');
      assert.ok(!error.message.includes(password));
      assert.ok(!error.message.includes(basic));
      assert.ok(logLines.length > 0);
      for (const line of logLines) {
        assert.ok(!line.includes(password) && !line.includes(basic), line);
        assert.ok(!line.includes(forge.channel.password), line);
      }
    });

    it('sends a 401 with a Basic challenge and a text body (the raw reply)', async () => {
      const reply = await rawRequest(forge, '/files', { auth: false });
      assert.equal(reply.status, 401);
      assert.match(reply.headers.get('www-authenticate') ?? '', /^Basic realm=/);
      assert.match(reply.contentType ?? '', /^text\/plain/);
      assert.equal(reply.text, 'This api requires login');
    });
  });

  // ---- files --------------------------------------------------------------------------------------

  describe('files', () => {
    it('lists every file and folder, oldest first, with numbers parsed', async () => {
      const files = await client.listFiles().toArray();
      assert.equal(files.length, fx.fileCount);
      const created = files.map((file) => file.created ?? '');
      assert.deepEqual(created, [...created].sort());
      const binary = files.find((file) => file.hash === fx.binaryFile.hash);
      assert.ok(binary);
      assert.equal(binary.filesize, fx.binaryFile.size);
      assert.equal(binary.is_dir, false);
      assert.equal(files.find((file) => file.hash === fx.folder.hash)?.is_dir, true);
    });

    it('pages with start and records until a short page (the listing has no total)', async () => {
      const files = await client.listFiles({}, 5).toArray();
      assert.equal(files.length, fx.fileCount);
      const requests = channelRequests(forge, '/files');
      assert.deepEqual(
        requests.map((request) => [queryValue(request, 'start'), queryValue(request, 'records')]),
        [
          ['0', '5'],
          ['5', '5'],
          ['10', '5'],
        ],
      );
      assert.equal(new Set(files.map((file) => file.hash)).size, fx.fileCount);
    });

    it('takes one page at a time, and says where the next one starts', async () => {
      const list = client.listFiles({}, 5);
      const first = await list.page();
      assert.equal(first.items.length, 5);
      assert.equal(first.nextStart, 5);
      const last = await list.page({ start: 10 });
      assert.equal(last.items.length, fx.fileCount - 10);
      assert.equal(last.nextStart, undefined);
    });

    it('sends start only together with records (the server ignores it alone); records 0 is unlimited', async () => {
      const all = await client.listFiles().page({ start: 3, records: 0 });
      assert.equal(all.items.length, fx.fileCount);
      assert.equal(all.nextStart, undefined);
      const [request] = channelRequests(forge, '/files');
      assert.ok(request);
      assert.equal(queryValue(request, 'start'), undefined);
      assert.equal(queryValue(request, 'records'), '0');
    });

    it('filters by exact hash, by name and by mimetype substring', async () => {
      const byHash = await client.listFiles({ filehash: fx.binaryFile.hash }).toArray();
      assert.deepEqual(
        byHash.map((file) => file.filename),
        ['archive.bin'],
      );
      const byPrefix = await client.listFiles({ filehash: fx.binaryFile.hash.slice(0, 10) }).toArray();
      assert.deepEqual(byPrefix, [], 'filehash is an exact match');
      const byName = await client.listFiles({ filename: 'ARCH' }).toArray();
      assert.deepEqual(
        byName.map((file) => file.filename),
        ['archive.bin'],
      );
      const images = await client.listFiles({ filetype: 'image/' }).toArray();
      assert.equal(images.length, 5);
      assert.ok(images.every((file) => file.is_photo === true));
    });

    it('reads numbers sent as strings (older servers) and as numbers (current servers) alike', async () => {
      const raw = await rawRequest(forge, '/files', { query: { filehash: fx.binaryFile.hash } });
      assert.match(raw.text, new RegExp(`"filesize":"${fx.binaryFile.size}"`));
      const older = await client.listFiles({ filehash: fx.binaryFile.hash }).toArray();

      forge.channel.state.numbers = 'numbers';
      const rawNumbers = await rawRequest(forge, '/files', { query: { filehash: fx.binaryFile.hash } });
      assert.match(rawNumbers.text, new RegExp(`"filesize":${fx.binaryFile.size}[,}]`));
      const current = await client.listFiles({ filehash: fx.binaryFile.hash }).toArray();
      assert.deepEqual(current, older);
      assert.equal(current[0]?.filesize, fx.binaryFile.size);
      assert.equal(current[0]?.id, fx.binaryFile.id);
    });

    it('reads one chunk through filedata, matching the beginning of the hash', async () => {
      const content = storedFile(fx.binaryFile.hash).content;
      const chunk = await client.getFileData(fx.binaryFile.hash.slice(0, 12), { start: 1000, length: 4096 });
      assert.equal(chunk.attach.hash, fx.binaryFile.hash);
      assert.equal(chunk.attach.start, 1000);
      assert.equal(chunk.attach.length, 4096);
      assert.ok(chunk.bytes.equals(content.subarray(1000, 5096)));
      const tail = await client.getFileData(fx.binaryFile.hash, {
        start: fx.binaryFile.size - 10,
        length: 4096,
      });
      assert.equal(tail.bytes.length, 10, 'a chunk shorter than asked is the end');
    });

    it('reports an unknown file id (an empty 200) as a ChannelReplyError naming endpoint and id', async () => {
      await failure(client.getFileData('ffffffffffff'), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'empty');
        assert.equal(error.endpoint, 'GET /filedata');
        assert.match(error.message, /^Channel GET \/filedata failed: /);
        assert.match(error.message, /empty body/);
        assert.match(error.message, /ffffffffffff/);
      });
      await assert.rejects(client.getFileData(''), RangeError);
      await assert.rejects(client.downloadFile('', join(tmp, 'nothing')), RangeError);
    });

    it('reads file metadata by the exact hash (a prefix is an empty 200)', async () => {
      const reply = (await client.getFileMeta(fx.textFile.hash)) as { attach: Record<string, unknown> };
      assert.equal(reply.attach['filename'], 'notes.txt');
      assert.equal('content' in reply.attach, false);
      await failure(client.getFileMeta(fx.textFile.hash.slice(0, 20)), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'empty');
        assert.match(error.message, /GET \/filemeta/);
      });
    });

    it('exports a file as a path on the server, not the bytes', async () => {
      const reply = (await client.exportFile(fx.binaryFile.hash)) as { attach: { content: string }[] };
      assert.match(reply.attach[0]?.content ?? '', /^store\/wren\//);
      await failure(client.exportFile('nope'), ChannelReplyError);
    });

    it('fetches a whole file in one reply with file; a folder has no content', async () => {
      const file = await client.getFile(fx.textFile.hash);
      assert.equal(sha256(file.bytes), fx.textFile.sha256);
      const folder = await client.getFile(fx.folder.hash);
      assert.equal(folder.bytes.length, 0);
      await failure(client.getFile(fx.textFile.hash.slice(0, 8)), ChannelReplyError);
    });
  });

  // ---- chunked download ---------------------------------------------------------------------------

  describe('chunked download through filedata', () => {
    function filedataStarts(): number[] {
      return channelRequests(forge, '/filedata').map((request) => Number(queryValue(request, 'start')));
    }

    it('reads file data whose base64 is wrapped in lines, and refuses data that is not base64', async () => {
      forge.channel.state.base64LineLength = 76;
      try {
        const destination = join(tmp, 'wrapped.bin');
        const result = await client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK });
        assert.equal(result.bytes, fx.binaryFile.size);
        assert.equal(sha256(await readFile(destination)), fx.binaryFile.sha256);
      } finally {
        forge.channel.state.base64LineLength = undefined;
      }
      forge.onRequest((request, response) => {
        if (!request.url?.startsWith('/api/z/1.0/filedata')) return false;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            attach: {
              id: 1,
              hash: fx.binaryFile.hash,
              filename: 'garbled.bin',
              filetype: 'application/octet-stream',
              filesize: 10,
              edited: '2026-11-26 10:00:00',
              start: 0,
              length: 10,
              content: '%%not base64%%',
            },
          }),
        );
        return true;
      });
      try {
        const destination = join(tmp, 'garbled.bin');
        await assert.rejects(
          client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK }),
          /not valid base64/,
        );
        assert.equal(existsSync(destination), false);
      } finally {
        forge.onRequest(undefined);
      }
    });

    it('saves a binary file chunk by chunk with progress, and leaves nothing else behind', async () => {
      const destination = join(tmp, 'archive.bin');
      const progress: ChunkedDownloadProgress[] = [];
      const result = await client.downloadFile(fx.binaryFile.hash.slice(0, 16), destination, {
        chunkSize: CHUNK,
        onProgress: (step) => progress.push(step),
      });
      const chunks = Math.ceil(fx.binaryFile.size / CHUNK);
      assert.equal(result.bytes, fx.binaryFile.size);
      assert.equal(result.chunks, chunks);
      assert.equal(result.resumedFromBytes, 0);
      assert.equal(result.hash, fx.binaryFile.hash);
      assert.equal(sha256(await readFile(destination)), fx.binaryFile.sha256);
      assert.equal(progress.length, chunks);
      assert.deepEqual(
        progress.map((step) => step.receivedBytes),
        Array.from({ length: chunks }, (_, index) => Math.min((index + 1) * CHUNK, fx.binaryFile.size)),
      );
      assert.ok(progress.every((step) => step.totalBytes === fx.binaryFile.size));
      assert.deepEqual(
        filedataStarts(),
        Array.from({ length: chunks }, (_, index) => index * CHUNK),
      );
      assert.ok(
        channelRequests(forge, '/filedata').every(
          (request) => queryValue(request, 'length') === String(CHUNK),
        ),
      );
      assert.equal(await exists(`${destination}.part`), false);
      assert.equal(await exists(`${destination}.part.json`), false);
    });

    it('stops when cancelled and removes the partial file', async () => {
      const destination = join(tmp, 'cancelled.bin');
      const controller = new AbortController();
      await failure(
        client.downloadFile(fx.binaryFile.hash, destination, {
          chunkSize: CHUNK,
          signal: controller.signal,
          onProgress: (step) => {
            if (step.chunks === 2) controller.abort();
          },
        }),
        CancelledError,
      );
      assert.equal(filedataStarts().length, 2);
      assert.equal(await exists(destination), false);
      assert.equal(await exists(`${destination}.part`), false);
      assert.equal(await exists(`${destination}.part.json`), false);
    });

    it('keeps the complete chunks after a broken connection and resumes with only the missing ones', async () => {
      const destination = join(tmp, 'resumed.bin');
      const brokenFrom = 3 * CHUNK;
      forge.onRequest((request, response) => {
        const url = new URL(request.url ?? '/', forge.url);
        if (url.pathname !== '/api/z/1.0/filedata' || Number(url.searchParams.get('start')) < brokenFrom)
          return false;
        response.socket?.destroy();
        return true;
      });
      const error = await failure(
        client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK }),
        ChannelDownloadError,
        (caught) => {
          assert.equal(caught.partialBytes, brokenFrom);
          assert.match(caught.message, /broke off after 196608 of 307977 bytes/);
          assert.match(caught.message, /resumes/);
        },
      );
      assert.ok(error.cause instanceof Error);
      assert.equal(await exists(destination), false, 'a failed download leaves no file that looks complete');
      assert.equal((await stat(`${destination}.part`)).size, brokenFrom);
      assert.ok(await exists(`${destination}.part.json`));
      // The transport retried the broken chunk (a GET), then gave up.
      assert.ok(filedataStarts().filter((start) => start === brokenFrom).length > 1);

      forge.onRequest(undefined);
      forge.clearRequests();
      const progress: ChunkedDownloadProgress[] = [];
      const result = await client.downloadFile(fx.binaryFile.hash, destination, {
        chunkSize: CHUNK,
        onProgress: (step) => progress.push(step),
      });
      assert.deepEqual(filedataStarts(), [3 * CHUNK, 4 * CHUNK], 'only the missing chunks are fetched');
      assert.equal(result.resumedFromBytes, brokenFrom);
      assert.equal(result.chunks, 2);
      assert.equal(progress[0]?.receivedBytes, 4 * CHUNK);
      assert.equal(progress[0]?.resumedFromBytes, brokenFrom);
      assert.equal(sha256(await readFile(destination)), fx.binaryFile.sha256);
      assert.equal(await exists(`${destination}.part.json`), false);
    });

    it('drops bytes past the last recorded chunk before resuming', async () => {
      const destination = join(tmp, 'torn.bin');
      forge.onRequest((request, response) => {
        const url = new URL(request.url ?? '/', forge.url);
        if (url.pathname !== '/api/z/1.0/filedata' || Number(url.searchParams.get('start')) < CHUNK)
          return false;
        response.socket?.destroy();
        return true;
      });
      await failure(
        client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK }),
        ChannelDownloadError,
      );
      forge.onRequest(undefined);
      // Half a chunk written after the sidecar was updated (a crash mid-write).
      const part = await readFile(`${destination}.part`);
      await writeFile(`${destination}.part`, Buffer.concat([part, Buffer.alloc(1000, 7)]));
      forge.clearRequests();
      await client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK });
      assert.equal(filedataStarts()[0], CHUNK);
      assert.equal(sha256(await readFile(destination)), fx.binaryFile.sha256);
    });

    it('starts again from the beginning when the file changed on the server since the failure', async () => {
      const destination = join(tmp, 'changed.bin');
      const file = storedFile(fx.binaryFile.hash);
      const original = { content: file.content, filesize: file.filesize, edited: file.edited };
      forge.onRequest((request, response) => {
        const url = new URL(request.url ?? '/', forge.url);
        if (url.pathname !== '/api/z/1.0/filedata' || Number(url.searchParams.get('start')) < 2 * CHUNK)
          return false;
        response.socket?.destroy();
        return true;
      });
      try {
        await failure(
          client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK }),
          ChannelDownloadError,
        );
        forge.onRequest(undefined);
        file.content = Buffer.concat([Buffer.from('new revision\n'), original.content.subarray(0, 150_000)]);
        file.filesize = file.content.length;
        file.edited = '2024-07-02 10:00:00';
        forge.clearRequests();
        const result = await client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK });
        assert.deepEqual(filedataStarts(), [2 * CHUNK, 0, CHUNK, 2 * CHUNK]);
        assert.equal(result.bytes, file.content.length);
        assert.ok((await readFile(destination)).equals(file.content));
      } finally {
        Object.assign(file, original);
      }
    });

    it('discards a file that does not come to the size the server reported, leaving no final file', async () => {
      const destination = join(tmp, 'short.bin');
      const file = storedFile(fx.binaryFile.hash);
      file.filesize += 5000;
      try {
        await failure(
          client.downloadFile(fx.binaryFile.hash, destination, { chunkSize: CHUNK }),
          ChannelDownloadError,
          (error) => {
            assert.equal(error.partialBytes, 0);
            assert.match(
              error.message,
              /came to 307977 bytes but 312977 were expected; the file was discarded/,
            );
          },
        );
      } finally {
        file.filesize -= 5000;
      }
      assert.equal(await exists(destination), false);
      assert.equal(await exists(`${destination}.part`), false);
      assert.equal(await exists(`${destination}.part.json`), false);
    });

    it('checks the size the caller expects, too', async () => {
      const destination = join(tmp, 'expected.bin');
      await failure(
        client.downloadFile(fx.textFile.hash, destination, { expectedSize: fx.textFile.size - 1 }),
        ChannelDownloadError,
        (error) => assert.match(error.message, /were expected/),
      );
      assert.equal(await exists(destination), false);
      assert.equal(await exists(`${destination}.part`), false);
    });

    it('saves an empty file, and refuses folders and unknown ids without leaving anything', async () => {
      const empty = join(tmp, 'empty.txt');
      const result = await client.downloadFile(fx.emptyFile.hash, empty, { chunkSize: CHUNK });
      assert.equal(result.bytes, 0);
      assert.equal((await stat(empty)).size, 0);

      const folder = join(tmp, 'folder');
      await failure(client.downloadFile(fx.folder.hash, folder), ChannelDownloadError, (error) =>
        assert.match(error.message, /is a folder/),
      );
      assert.equal(await exists(`${folder}.part`), false);

      const unknown = join(tmp, 'unknown');
      const error = await failure(client.downloadFile('0000deadbeef', unknown), ChannelDownloadError);
      assert.ok(error.cause instanceof ChannelReplyError);
      assert.equal(error.cause.problem, 'empty');
      assert.equal(await exists(`${unknown}.part`), false);
      assert.equal(await exists(`${unknown}.part.json`), false);
    });
  });

  // ---- photos ---------------------------------------------------------------------------------------

  describe('photos', () => {
    it('lists albums with their photo counts', async () => {
      const albums = await client.listAlbums();
      assert.deepEqual(
        albums.map((album) => [album.text, album.total]),
        [
          ['/', 1],
          ['2024-05', 2],
          ['Cover Photos', 1],
          ['Profile Photos', 1],
        ],
      );
      const cover = albums.find((album) => album.text === 'Cover Photos');
      assert.equal(cover?.urlencode, 'Cover+Photos');
      assert.equal(cover?.bin2hex, Buffer.from('Cover Photos').toString('hex'));
      assert.ok(cover?.url.startsWith(forge.url));
    });

    it('lists photos, one entry per scale; an unknown album (an empty success on real hubs) is not found', async () => {
      const all = await client.listPhotos();
      assert.equal(all.length, 15);
      const may = await client.listPhotos({ album: '2024-05' });
      assert.equal(may.length, 6);
      await failure(client.listPhotos({ album: 'No such album' }), ChannelReplyError, (error) =>
        assert.equal(error.problem, 'not-found'),
      );
    });

    it('fetches one scale of a photo with its bytes', async () => {
      const photo = forge.channel.state.photos.find(
        (each) => each.resourceId === fx.photo.resourceId && each.scale === 1,
      );
      assert.ok(photo);
      const reply = await client.getPhoto(fx.photo.resourceId, { scale: 1 });
      assert.ok(reply.bytes.equals(photo.content));
      const original = await client.getPhoto(fx.photo.resourceId);
      assert.ok(original.bytes.length > reply.bytes.length);
      await failure(client.getPhoto(fx.photo.resourceId, { scale: 7 }), ChannelReplyError, (error) =>
        assert.match(error.message, /at scale 7/),
      );
    });
  });

  // ---- groups and identities -------------------------------------------------------------------------

  describe('privacy groups, connections and identities', () => {
    it('lists all privacy groups, deleted ones included', async () => {
      const groups = await client.listGroups();
      assert.deepEqual(
        groups.map((group) => [group.gname, group.visible, group.deleted]),
        [
          ['Friends', false, false],
          ['Family', true, false],
          ['Co-workers', false, false],
          ['Empty', false, false],
          ['Old friends', false, true],
        ],
      );
      assert.equal(groups[0]?.hash, fx.groups.friends.hash);
      assert.equal(typeof groups[0]?.id, 'number');
    });

    it('lists group members by id and by name; a member outside the address book has null abook columns', async () => {
      const friends = await client.listGroupMembers({ id: fx.groups.friends.id });
      assert.deepEqual(
        friends.map((member) => member.xchan_name),
        ['Ada Lovelace', 'Grace Hopper', 'Barbara Liskov'],
      );
      const barbara = friends.find((member) => member.xchan === fx.connections.barbara.hash);
      assert.equal(barbara?.abook_id, null);
      assert.equal(friends[0]?.abook_id, fx.connections.ada.abookId);
      assert.equal(friends[0]?.gid, fx.groups.friends.id);
      const family = await client.listGroupMembers({ name: 'Family' });
      assert.deepEqual(
        family.map((member) => member.xchan_addr),
        [fx.connections.margaret.address],
      );
      assert.deepEqual(await client.listGroupMembers({ id: fx.groups.empty.id }), []);
    });

    it('reports an unknown group (an empty text/html 200) as a ChannelReplyError', async () => {
      const raw = await rawRequest(forge, '/group_members', { query: { group_name: 'Nobody' } });
      assert.equal(raw.status, 200);
      assert.equal(raw.text, '');
      assert.match(raw.contentType ?? '', /^text\/html/);
      await failure(client.listGroupMembers({ name: 'Nobody' }), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'empty');
        assert.match(error.message, /GET \/group_members/);
        assert.match(error.message, /"Nobody"/);
      });
    });

    it('looks an identity up by address, hash or guid; an unknown one answers `false`', async () => {
      const ada = fx.connections.ada;
      const byAddress = await client.getXchan({ address: ada.address });
      assert.equal(byAddress.name, 'Ada Lovelace');
      assert.equal(byAddress.hash, ada.hash);
      assert.equal(byAddress.network, 'zot6');
      assert.equal((await client.getXchan({ hash: ada.hash })).address, ada.address);
      assert.equal((await client.getXchan({ guid: ada.guid })).address, ada.address);
      const self = await client.getXchan({ hash: fx.connections.self.hash });
      assert.ok(self.url.startsWith(forge.url), 'URLs of the hub itself are absolute');

      const raw = await rawRequest(forge, '/xchan', { query: { address: 'nobody@nowhere.example' } });
      assert.equal(raw.text, 'false');
      await failure(client.getXchan({ address: 'nobody@nowhere.example' }), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'false');
        assert.match(error.message, /GET \/xchan failed: the server answered `false`/);
        assert.match(error.message, /nobody@nowhere\.example/);
      });
      const twoKeys: XchanLookup = Object.assign({ address: ada.address }, { hash: ada.hash });
      await assert.rejects(client.getXchan(twoKeys), RangeError);
    });

    it('lists connections with their identities, all or one', async () => {
      const all = await client.listConnections();
      assert.equal(all.length, 6);
      assert.equal(all.filter((row) => String(row['abook_self']) === '1').length, 1);
      const one = await client.listConnections({ abookId: fx.connections.grace.abookId });
      assert.deepEqual(
        one.map((row) => row['xchan_name']),
        ['Grace Hopper'],
      );
    });

    it('lists connection settings with text values', async () => {
      forge.channel.state.numbers = 'numbers';
      const rows = await client.listConnectionConfig({ abookId: fx.connections.linus.abookId });
      assert.ok(rows.length > 0);
      assert.ok(rows.every((row) => row['xchan'] === fx.connections.linus.hash));
      assert.ok(rows.every((row) => typeof row['v'] === 'string'));
      const viewStream = rows.find((row) => row['cat'] === 'my_perms' && row['k'] === 'view_stream');
      assert.equal(viewStream?.['v'], '1');
      assert.ok((await client.listConnectionConfig()).length > rows.length);
    });

    it('checks permissions: one as a boolean, all of them as 0/1, unknown targets as `false`', async () => {
      assert.deepEqual(
        await client.permissionsAllowed(
          { abookId: fx.connections.ada.abookId ?? 0 },
          { perm: 'view_stream' },
        ),
        [{ perm: 'view_stream', allowed: true }],
      );
      const [ken] = await client.permissionsAllowed(
        { address: fx.connections.ken.address },
        { perm: 'view_stream' },
      );
      assert.equal(ken?.allowed, false);
      const linus = fx.connections.linus.abookId ?? 0;
      const raw = await rawRequest(forge, '/perm_allowed', { query: { abook_id: String(linus) } });
      assert.match(raw.text, /"allowed":1/);
      const all = await client.permissionsAllowed({ abookId: linus });
      assert.equal(all.length, 18);
      assert.deepEqual(
        all.filter((entry) => entry.allowed).map((entry) => entry.perm),
        ['view_stream'],
      );
      // Asked by hash, a real hub answers "not allowed" for what it allows by abook_id: the client
      // finds the connection first.
      const byHash = await client.permissionsAllowed({ hash: fx.connections.linus.hash });
      assert.equal(byHash.filter((entry) => entry.allowed).length, 0);
      assert.equal(await client.findConnection({ hash: fx.connections.linus.hash }), linus);
      assert.equal(
        await client.findConnection({ address: fx.connections.linus.address.toUpperCase() }),
        linus,
      );
      assert.equal(await client.findConnection({ guid: fx.connections.barbara.guid }), undefined);
      await failure(
        client.permissionsAllowed({ address: 'nobody@nowhere.example' }),
        ChannelReplyError,
        (error) => assert.equal(error.problem, 'false'),
      );
    });
  });

  // ---- streams --------------------------------------------------------------------------------------------

  describe('streams', () => {
    it('walks the channel stream by advancing mindate, each item once', async () => {
      const state = forge.channel.state;
      const expected = state.items.filter(
        (item) => item.itemWall === 1 && item.ownerXchan === state.channel.hash,
      );
      const items = await client.channelStream({ mindate: new Date('2000-01-01T00:00:00Z') }).toArray();
      assert.equal(items.length, expected.length);
      const ids = items.map((item) => streamItemKeys(item).id);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual(new Set(ids), new Set(expected.map((item) => item.mid)));
      const mindates = channelRequests(forge, '/channel/stream').map((request) =>
        queryValue(request, 'mindate'),
      );
      assert.equal(mindates[0], '2000-01-01 00:00:00');
      assert.equal(mindates.length, Math.ceil(fx.ownThreads / state.channelStreamLimit) + 1);
      for (let index = 1; index < mindates.length; index++) {
        assert.ok((mindates[index] ?? '') > (mindates[index - 1] ?? ''), 'mindate moves forward');
      }
    });

    it('without mindate gets what the server picks (the last 14 days)', async () => {
      assert.deepEqual(await client.channelStream().fetch(), []);
      const [request] = channelRequests(forge, '/channel/stream');
      assert.equal(request && queryValue(request, 'mindate'), undefined);
    });

    it('reads the network stream by thread in large pages (200 threads), and in small ones when asked', async () => {
      const state = forge.channel.state;
      const items = await client.networkStream().toArray();
      assert.equal(items.length, state.items.length);
      const pages = channelRequests(forge, '/network/stream').map((request) => [
        queryValue(request, 'start'),
        queryValue(request, 'records'),
      ]);
      assert.deepEqual(pages, [['0', '200']]);
      forge.clearRequests();
      // Ten a page: each next page starts where the last page's second began, so it overlaps.
      const small = await client.networkStream({}, 10).toArray();
      assert.equal(small.length, state.items.length);
      const starts = channelRequests(forge, '/network/stream').map((request) =>
        Number(queryValue(request, 'start')),
      );
      assert.ok(starts.length >= 4, `${starts.length} pages`);
      for (let index = 1; index < starts.length; index++) {
        assert.ok((starts[index] ?? 0) > (starts[index - 1] ?? 0), 'each page starts further on');
      }
      const tops = items.filter((item) => {
        const keys = streamItemKeys(item);
        return keys.id === keys.top;
      });
      assert.equal(tops.length, fx.ownThreads + fx.networkThreads);
    });

    it('gives one network page with its thread count, and filters by date', async () => {
      const page = await client.networkStream({}, 4).page(4);
      assert.equal(page.threads, 4);
      assert.equal(page.nextStart, 8);
      const march = await client
        .networkStream({ dbegin: '2024-03-01 00:00:00', dend: new Date('2024-03-31T23:59:59Z') })
        .toArray();
      const marchTops = march.filter((item) => streamItemKeys(item).id === streamItemKeys(item).top);
      assert.ok(marchTops.length > 0);
      assert.ok(marchTops.every((item) => String(item['created']).startsWith('2024-03')));
      const [request] = channelRequests(forge, '/network/stream').slice(-1);
      assert.equal(request && queryValue(request, 'dend'), '2024-03-31 23:59:59');
    });

    it('reads a whole thread with item/full by message id or item id; an unknown one is `[]`', async () => {
      const byMid = await client.getItem({ mid: fx.ownPost.mid });
      assert.equal(byMid.items.length, 1 + fx.ownPost.comments);
      assert.equal(streamItemKeys(byMid.items[0] ?? {}).id, fx.ownPost.mid);
      const byId = await client.getItem({ itemId: fx.networkPost.id });
      assert.equal(byId.items.length, 1 + fx.networkPost.comments);
      await failure(client.getItem({ mid: 'nope@nowhere' }), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'nothing-found');
        assert.match(error.message, /GET \/item\/full/);
      });
    });
  });

  // ---- channel export -----------------------------------------------------------------------------------

  describe('channel export', () => {
    it('exports the default sections and leaves out the empty ones', async () => {
      const data = await client.exportChannel();
      for (const key of ['compatibility', 'channel', 'abook', 'xchan', 'group', 'config', 'event']) {
        assert.ok(key in data, `${key} is exported`);
      }
      for (const key of ['app', 'chatroom', 'mail', 'wiki', 'webpages', 'item']) {
        assert.equal(key in data, false, `${key} is empty and left out`);
      }
      assert.equal((data['channel'] as Record<string, unknown>)['channel_address'], 'wren');
    });

    it('exports only the sections asked for; posts (ignored by real hubs here) come from item/export_page', async () => {
      const channelOnly = await client.exportChannel({ sections: ['channel'] });
      assert.deepEqual(Object.keys(channelOnly).sort(), ['channel', 'compatibility', 'profile']);
      assert.equal(
        queryValue(channelRequests(forge, '/channel/export/basic')[0] ?? never(), 'sections'),
        'channel',
      );
      const withPosts = await client.exportChannel({ posts: true });
      assert.equal(withPosts['item'], undefined, 'the hub left the posts out, as real hubs do');
      const { state } = forge.channel;
      const own = state.items.filter(
        (item) => item.itemDeleted === 0 && item.ownerXchan === state.channel.hash,
      );
      const pages: number[] = [];
      const ids: string[] = [];
      for await (const page of client.exportItems({ records: 7 })) {
        pages.push(page.length);
        ids.push(...page.map((item) => streamItemKeys(item).id ?? ''));
      }
      assert.equal(ids.length, own.length);
      assert.equal(new Set(ids).size, ids.length, 'each post once');
      assert.ok(pages.length > 1 && pages.slice(0, -1).every((count) => count === 7));
      assert.deepEqual(await client.exportItemsPage(1000), [], 'past the end: no item key, no posts');
    });
  });

  // ---- items ----------------------------------------------------------------------------------------------

  describe('item/update', () => {
    const SPEC_FIELDS = [
      'body',
      'title',
      'contact_allow',
      'contact_deny',
      'group_allow',
      'group_deny',
      'coord',
      'location',
      'expire',
      'mimetype',
      'parent',
      'parent_mid',
      'remote_xchan',
      'consensus',
      'nocomment',
      'origin',
      'namespace',
      'remote_id',
      'message_id',
      'created',
      'post_id',
      'app',
      'category',
      'webpage',
      'pagetitle',
      'layout_mid',
      'plink',
      'verb',
      'obj_type',
    ];

    function lastUpdateRequest() {
      const [request] = channelRequests(forge, '/item/update').slice(-1);
      assert.ok(request, 'no item/update request');
      return request;
    }

    it('creates a post as a form; without access fields it goes to the default audience', async () => {
      const { itemId, item } = await client.updateItem({ body: 'Hello [b]world[/b]', title: 'Greeting' });
      assert.equal(item.id, itemId);
      assert.equal(item.body, 'Hello [b]world[/b]');
      assert.equal(item.title, 'Greeting');
      assert.equal(item.parent, itemId);
      assert.equal(item.author_xchan, fx.connections.self.hash);
      assert.equal(item.allow_gid, `<${fx.groups.friends.hash}>`, 'the channel default is the Friends group');
      assert.equal(item.item_private, 1);
      const request = lastUpdateRequest();
      assert.equal(request.method, 'POST');
      assert.match(header(request, 'content-type') ?? '', /^application\/x-www-form-urlencoded/);
      assert.deepEqual(request.body, { body: 'Hello [b]world[/b]', title: 'Greeting' });
    });

    it('makes a post public with an empty contact_allow, and restricts it with hashes', async () => {
      const open = await client.updateItem({ body: 'For everyone', contact_allow: [] });
      assert.equal(open.item.allow_gid, '');
      assert.equal(open.item.allow_cid, '');
      assert.equal(open.item.item_private, 0);
      assert.deepEqual(lastUpdateRequest().body, { body: 'For everyone', contact_allow: '' });

      const ada = fx.connections.ada.hash;
      const grace = fx.connections.grace.hash;
      const restricted = await client.updateItem({
        body: 'Two people',
        contact_allow: [ada, grace],
        group_deny: [fx.groups.coworkers.hash],
      });
      assert.equal(restricted.item.allow_cid, `<${ada}><${grace}>`);
      assert.equal(restricted.item.deny_gid, `<${fx.groups.coworkers.hash}>`);
      assert.deepEqual(lastUpdateRequest().body, {
        body: 'Two people',
        'contact_allow[]': [ada, grace],
        'group_deny[]': fx.groups.coworkers.hash,
      });
    });

    it('sends every documented field', async () => {
      const parent = await client.updateItem({ body: 'Parent', contact_allow: [] });
      const input: ItemUpdateInput = {
        body: 'Every field',
        title: 'All of them',
        contact_allow: [fx.connections.ada.hash],
        contact_deny: [fx.connections.ken.hash],
        group_allow: [fx.groups.family.hash],
        group_deny: [fx.groups.coworkers.hash],
        coord: '52.52 13.40',
        location: 'Harbour',
        expire: new Date('2030-01-01T00:00:00Z'),
        mimetype: 'text/markdown',
        parent: parent.itemId,
        parent_mid: parent.item.mid,
        remote_xchan: fx.connections.grace.hash,
        consensus: true,
        nocomment: false,
        origin: 1,
        namespace: 'rss',
        remote_id: 'urn:remote:1',
        message_id: 'custom-mid@hub.forge.test',
        created: '2024-06-01 10:00:00',
        post_id: undefined,
        app: 'Forge Workbench',
        category: ['forge', 'tests'],
        webpage: 0,
        pagetitle: 'every-field',
        layout_mid: 'layout@hub.forge.test',
        plink: 'https://example.org/p/1',
        verb: 'Create',
        obj_type: 'Note',
      };
      const { item } = await client.updateItem(input);
      const body = lastUpdateRequest().body as Record<string, unknown>;
      const sent = new Set(Object.keys(body).map((key) => key.replace(/\[\]$/, '')));
      const missing = SPEC_FIELDS.filter(
        (field) => !sent.has(field) && field !== 'post_id' && field !== 'media',
      );
      assert.deepEqual(missing, []);
      assert.equal(body['consensus'], '1');
      assert.equal(body['nocomment'], '0');
      assert.equal(body['expire'], '2030-01-01 00:00:00');
      assert.equal(body['category'], 'forge,tests');
      assert.equal(item.mid, 'custom-mid@hub.forge.test');
      assert.equal(item.parent, parent.itemId, 'a comment on the parent');
      assert.equal(item.parent_mid, parent.item.mid);
      assert.equal(item.author_xchan, fx.connections.grace.hash);
      assert.equal(item.created, '2024-06-01 10:00:00');
      assert.equal(item.expires, '2030-01-01 00:00:00');
      assert.equal(item.mimetype, 'text/markdown');
      assert.equal(item.app, 'Forge Workbench');
      assert.equal(item.location, 'Harbour');
      assert.equal(item.coord, '52.52 13.40');
      assert.equal(item.layout_mid, 'layout@hub.forge.test');
      assert.equal(item.plink, 'https://example.org/p/1');
      assert.equal(item.item_consensus, true);
      assert.equal(item.item_nocomment, false);
      const stored = forge.channel.state.findItem(item.id);
      assert.deepEqual(stored?.categories, ['forge', 'tests']);
      assert.deepEqual(stored?.iids, [
        { service: 'WEBPAGE', sid: 'every-field' },
        { service: 'rss', sid: 'urn:remote:1' },
      ]);

      const edited = await client.updateItem({ body: 'Edited', post_id: parent.itemId });
      assert.equal(edited.itemId, parent.itemId);
      assert.equal(edited.item.body, 'Edited');
      assert.equal(
        lastUpdateRequest().body && (lastUpdateRequest().body as Record<string, unknown>)['post_id'],
        String(parent.itemId),
      );
    });

    it('comments by parent_mid and keeps the thread', async () => {
      const { item } = await client.updateItem({ body: 'A comment', parent_mid: fx.networkPost.mid });
      assert.equal(item.parent, fx.networkPost.id);
      assert.equal(item.thr_parent, fx.networkPost.mid);
      const thread = await client.getItem({ itemId: fx.networkPost.id });
      assert.ok(thread.items.some((each) => streamItemKeys(each).id === item.mid));
    });

    it('uploads a media file as multipart; the server appends it to the body', async () => {
      const data = Buffer.from(Array.from({ length: 5000 }, (_, index) => index % 251));
      const { item } = await client.updateItem({
        body: 'With a file\nand two lines',
        title: 'Upload',
        contact_allow: [],
        media: { filename: 'data "1".bin', data, contentType: 'application/x-test' },
      });
      const request = lastUpdateRequest();
      assert.equal(request.method, 'POST');
      assert.match(header(request, 'content-type') ?? '', /^multipart\/form-data; boundary=/);
      const recorded = request.body as { fields: [string, string][]; files: Record<string, unknown>[] };
      // multipart/form-data as browsers send it (undici's FormData): line breaks in fields become CRLF.
      assert.deepEqual(recorded.fields, [
        ['body', 'With a file\r\nand two lines'],
        ['title', 'Upload'],
        ['contact_allow', ''],
      ]);
      assert.deepEqual(recorded.files, [
        { field: 'media', filename: 'data %221%22.bin', contentType: 'application/x-test', size: 5000 },
      ]);
      const attachment = /\[attachment\]([0-9a-f]{64}),0\[\/attachment\]$/.exec(item.body);
      assert.ok(attachment?.[1], item.body);
      assert.ok(item.body.startsWith('With a file\r\nand two lines\n\n'));
      const uploaded = await client.getFile(attachment[1]);
      assert.ok(uploaded.bytes.equals(data));
      assert.match(item.attach ?? '', /"length":5000/);
    });

    it('uploads media read from a path', async () => {
      const path = join(tmp, 'photo.png');
      await writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
      await client.updateItem({ body: 'A picture', media: { path, contentType: 'image/png' } });
      const recorded = lastUpdateRequest().body as { files: Record<string, unknown>[] };
      assert.deepEqual(recorded.files, [
        { field: 'media', filename: 'photo.png', contentType: 'image/png', size: 7 },
      ]);
    });

    it('reports refusals ({"success": false, "message"}) with the server message', async () => {
      await failure(client.updateItem({ body: '' }), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'refused');
        assert.equal(error.message, 'Channel POST /item/update failed: the server refused: no content');
      });
      await failure(client.updateItem({ body: 'x', parent: 999_999 }), ChannelReplyError, (error) =>
        assert.match(error.message, /Unable to locate original post/),
      );
      const closed = forge.channel.state.items.find(
        (item) => item.itemNocomment === 1 && item.id === item.parent,
      );
      assert.ok(closed);
      await failure(client.updateItem({ body: 'x', parent: closed.id }), ChannelReplyError, (error) =>
        assert.match(error.message, /Comments are closed/),
      );
      await failure(client.updateItem({ body: 'x', post_id: 999_999 }), ChannelReplyError, (error) =>
        assert.match(error.message, /invalid post id/),
      );
    });

    it('is never repeated when the connection breaks after sending', async () => {
      forge.onRequest((request, response) => {
        if (!request.url?.startsWith('/api/z/1.0/item/update')) return false;
        response.socket?.destroy();
        return true;
      });
      await failure(client.updateItem({ body: 'maybe posted' }), UncertainWriteError);
      assert.equal(channelRequests(forge, '/item/update').length, 1);
    });
  });

  // ---- the real servers' other habits ---------------------------------------------------------------------

  describe('server habits', () => {
    it('answers unknown routes with 404 {"error":"not implemented"}, which the client names', async () => {
      const raw = await rawRequest(forge, '/no/such/route');
      assert.equal(raw.status, 404);
      assert.deepEqual(JSON.parse(raw.text), { error: 'not implemented' });
      forge.onRequest((request, response) => {
        if (!request.url?.startsWith('/api/z/1.0/albums')) return false;
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'not implemented' }));
        return true;
      });
      await failure(client.listAlbums(), ChannelReplyError, (error) => {
        assert.equal(error.problem, 'not-implemented');
        assert.match(error.message, /GET \/albums failed: the server does not offer this endpoint/);
      });
    });

    it('does not check the method: a GET to item/update creates a post', async () => {
      const before = forge.channel.state.items.length;
      const raw = await rawRequest(forge, '/item/update', {
        query: { body: 'posted by GET', contact_allow: '' },
      });
      const reply = JSON.parse(raw.text) as { success: boolean; item_id: string };
      assert.equal(reply.success, true);
      assert.equal(typeof reply.item_id, 'string', 'older servers send the id as a string');
      assert.equal(forge.channel.state.items.length, before + 1);
    });

    it('answers a missing file id with an empty text/html 200 and an unknown one with an empty JSON 200', async () => {
      const missing = await rawRequest(forge, '/filedata');
      assert.equal(missing.status, 200);
      assert.equal(missing.text, '');
      assert.match(missing.contentType ?? '', /^text\/html/);
      const unknown = await rawRequest(forge, '/filedata', { query: { file_id: 'zzz' } });
      assert.equal(unknown.text, '');
      assert.match(unknown.contentType ?? '', /^application\/json/);
    });

    it('names the endpoint and field of a reply that does not fit the schema', async () => {
      forge.onRequest((request, response) => {
        if (!request.url?.startsWith('/api/z/1.0/albums')) return false;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: true, albums: [{ text: 'x', total: 'many' }] }));
        return true;
      });
      await failure(client.listAlbums(), SchemaMismatchError, (error) => {
        assert.equal(error.endpoint, 'GET /albums');
        assert.equal(error.fieldPath, 'albums.0.total');
      });
    });

    it('never puts the password into an error message', () => {
      assert.ok(errorMessages.length > 20);
      const basic = Buffer.from(`${forge.channel.nickname}:${forge.channel.password}`).toString('base64');
      for (const message of errorMessages) {
        assert.ok(!message.includes(forge.channel.password), message);
        assert.ok(!message.includes(basic), message);
      }
    });
  });

  // ---- coverage (keep last) --------------------------------------------------------------------------------

  describe('registry coverage', () => {
    it('exercised every registry entry with its method and a real (non-error) answer', () => {
      const served = forge.channel.state.served;
      const missing = unexercisedChannelEndpoints(served);
      const covered = CHANNEL_ENDPOINT_COUNT - missing.length;
      console.log(`      ${covered} of ${CHANNEL_ENDPOINT_COUNT} spec endpoints covered`);
      assert.equal(CHANNEL_ENDPOINT_COUNT, 19);
      assert.equal(Object.keys(CHANNEL_ENDPOINTS).length, CHANNEL_ENDPOINT_COUNT);
      assert.deepEqual(missing, [], `not exercised (${missing.length}): ${missing.join('; ')}`);
    });
  });
});

function never(): never {
  throw new Error('unreachable');
}
