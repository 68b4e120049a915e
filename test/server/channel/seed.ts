import { createHash } from 'node:crypto';
import { Prng } from '../prng';
import {
  type AbookRecord,
  type Acl,
  aclText,
  type ChannelState,
  HUB_HOST,
  PERMISSIONS,
  PUBLIC_ACL,
  type StoredFile,
  type StoredItem,
  type XchanRecord,
} from './state';

/*
 * Deterministic seed of the fake channel: every value comes from a seeded PRNG or a fixed base time, so two
 * runs give the same hashes, passwords, bytes and items.
 */

export interface SeededConnection {
  name: string;
  hash: string;
  guid: string;
  address: string;
  /** Undefined for an identity that is known (a group member) but not a connection. */
  abookId: number | undefined;
}

export interface SeededFile {
  id: number;
  hash: string;
  filename: string;
  size: number;
  sha256: string;
}

export interface SeededGroup {
  id: number;
  name: string;
  hash: string;
  members: number;
}

/** Notable seeded records, for tests. */
export interface ChannelFixtures {
  /** A binary file of a few hundred kilobytes with deterministic content. */
  binaryFile: SeededFile;
  textFile: SeededFile;
  emptyFile: SeededFile;
  folder: SeededFile;
  /** Files and folders in the listing. */
  fileCount: number;
  photo: { resourceId: string; album: string; scales: number };
  albums: string[];
  groups: {
    friends: SeededGroup;
    family: SeededGroup;
    coworkers: SeededGroup;
    empty: SeededGroup;
    deleted: SeededGroup;
  };
  connections: {
    self: SeededConnection;
    ada: SeededConnection;
    grace: SeededConnection;
    linus: SeededConnection;
    ken: SeededConnection;
    margaret: SeededConnection;
    /** In a privacy group but not in the address book. */
    barbara: SeededConnection;
  };
  /** A thread top of the channel's own stream with comments. */
  ownPost: { id: number; mid: string; comments: number };
  /** A thread top of the network stream (someone else's post). */
  networkPost: { id: number; mid: string; comments: number };
  ownThreads: number;
  networkThreads: number;
}

export interface ChannelSeed {
  nickname: string;
  email: string;
  password: string;
  fixtures: ChannelFixtures;
}

const BASE_TIME = Date.parse('2024-02-01T08:00:00.000Z');
const DAY = 86_400_000;
const BINARY_SIZE = 300 * 1024 + 777;

function at(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 19).replace('T', ' ');
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const WORDS = [
  'forge',
  'pipeline',
  'harbour',
  'lantern',
  'meadow',
  'signal',
  'river',
  'compass',
  'orchard',
  'granite',
  'beacon',
  'summit',
  'thread',
  'willow',
  'ember',
  'quartz',
];

function sentence(random: Prng, words: number): string {
  const picked: string[] = [];
  for (let i = 0; i < words; i++) picked.push(random.pick(WORDS));
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function seedChannel(state: ChannelState, seed = 'forge-workbench/channel'): ChannelSeed {
  const random = new Prng(seed);
  const nickname = 'wren';
  const email = 'wren@mail.forge.test';
  const password = `wren-${random.alphanumeric(14)}`;
  state.account = { id: 1, email, password };

  const identityHash = (): string => random.alphanumeric(86);
  const makeXchan = (
    name: string,
    address: string,
    network: string,
    url: string,
    extra: Partial<XchanRecord> = {},
  ): XchanRecord => {
    const host = address.split('@')[1] ?? HUB_HOST;
    const hash = identityHash();
    const photo = url.startsWith('/') ? `/photo/profile` : `https://${host}/photo/profile`;
    const xchan: XchanRecord = {
      hash,
      guid: identityHash(),
      guidSig: random.alphanumeric(120),
      pubkey: `-----BEGIN PUBLIC KEY-----\n${random.alphanumeric(64)}\n-----END PUBLIC KEY-----\n`,
      photoMimetype: 'image/png',
      photoL: `${photo}/l/${name.length}`,
      photoM: `${photo}/m/${name.length}`,
      photoS: `${photo}/s/${name.length}`,
      address,
      url,
      connurl: url.replace('/channel/', '/poco/'),
      follow: url.startsWith('/') ? '/follow?f=&url=%s' : `https://${host}/follow?f=&url=%s`,
      connpage: url.replace('/channel/', '/connect/'),
      name,
      network,
      instanceUrl: '',
      flags: 0,
      photoDate: at(BASE_TIME - 200 * DAY),
      nameDate: at(BASE_TIME - 200 * DAY),
      hidden: 0,
      orphan: 0,
      censored: 0,
      selfcensored: 0,
      system: 0,
      pubforum: 0,
      deleted: 0,
      ...extra,
    };
    state.xchans.set(hash, xchan);
    return xchan;
  };

  // ---- the channel and its connections --------------------------------------------------------

  const own = makeXchan('Wren Forge', `${nickname}@${HUB_HOST}`, 'zot6', `/channel/${nickname}`);
  state.channel = {
    uid: 2,
    nickname,
    name: own.name,
    hash: own.hash,
    guid: own.guid,
    defaultAcl: { ...PUBLIC_ACL },
  };
  const ada = makeXchan('Ada Lovelace', 'ada@hub.example.net', 'zot6', 'https://hub.example.net/channel/ada');
  const grace = makeXchan(
    'Grace Hopper',
    'grace@social.example.org',
    'activitypub',
    'https://social.example.org/users/grace',
  );
  const linus = makeXchan(
    'Linus Feed',
    'linus@feeds.example.com',
    'rss',
    'https://feeds.example.com/linus.xml',
  );
  const ken = makeXchan('Ken Thompson', 'ken@hub.example.net', 'zot6', 'https://hub.example.net/channel/ken');
  const margaret = makeXchan(
    'Margaret Hamilton',
    'margaret@apollo.example.edu',
    'zot6',
    'https://apollo.example.edu/channel/margaret',
  );
  const barbara = makeXchan(
    'Barbara Liskov',
    'barbara@clu.example.org',
    'activitypub',
    'https://clu.example.org/users/barbara',
    { hidden: 1 },
  );

  const connectionTime = (days: number): string => at(BASE_TIME - days * DAY);
  const addAbook = (xchan: XchanRecord, days: number, flags: Partial<AbookRecord> = {}): number => {
    const id = state.nextId('abook', 2);
    state.abook.push({
      id,
      xchan: xchan.hash,
      myPerms: 0,
      theirPerms: 0,
      closeness: flags.self ? 0 : 80,
      created: connectionTime(days),
      updated: connectionTime(days - 1),
      connected: flags.self ? '0000-00-00 00:00:00' : connectionTime(days - 1),
      blocked: 0,
      ignored: 0,
      hidden: 0,
      archived: 0,
      pending: 0,
      unconnected: 0,
      self: 0,
      feed: 0,
      ...flags,
    });
    return id;
  };
  const permissionsFor = new Map<string, readonly string[]>([
    [own.hash, PERMISSIONS],
    [ada.hash, PERMISSIONS.filter((perm) => perm !== 'delegate')],
    [grace.hash, ['view_stream', 'view_profile', 'view_contacts', 'post_comments', 'post_like']],
    [linus.hash, ['view_stream']],
    [ken.hash, []],
    [margaret.hash, ['view_profile']],
  ]);
  const abookIds = new Map<string, number>();
  abookIds.set(own.hash, addAbook(own, 400, { self: 1 }));
  abookIds.set(ada.hash, addAbook(ada, 300));
  abookIds.set(grace.hash, addAbook(grace, 250));
  abookIds.set(linus.hash, addAbook(linus, 200, { feed: 1 }));
  abookIds.set(ken.hash, addAbook(ken, 150, { blocked: 1 }));
  abookIds.set(margaret.hash, addAbook(margaret, 20, { pending: 1 }));
  for (const [hash, allowed] of permissionsFor) {
    for (const perm of PERMISSIONS) {
      state.abconfig.push({
        id: state.nextId('abconfig'),
        xchan: hash,
        cat: 'my_perms',
        k: perm,
        v: allowed.includes(perm) ? '1' : '0',
      });
    }
    if (hash !== own.hash) {
      state.abconfig.push({
        id: state.nextId('abconfig'),
        xchan: hash,
        cat: 'their_perms',
        k: 'view_stream',
        v: '1',
      });
    }
  }

  const connection = (xchan: XchanRecord): SeededConnection => ({
    name: xchan.name,
    hash: xchan.hash,
    guid: xchan.guid,
    address: xchan.address,
    abookId: abookIds.get(xchan.hash),
  });

  // ---- privacy groups ---------------------------------------------------------------------------

  const addGroup = (name: string, members: XchanRecord[], visible = 0, deleted = 0): SeededGroup => {
    const id = state.nextId('pgrp');
    const hash = `${random.hex(64)}${name}`;
    state.groups.push({ id, hash, name, visible, deleted });
    for (const member of members)
      state.groupMembers.push({ id: state.nextId('pgrp_member'), gid: id, xchan: member.hash });
    return { id, name, hash, members: members.length };
  };
  const friends = addGroup('Friends', [ada, grace, barbara]);
  const family = addGroup('Family', [margaret], 1);
  const coworkers = addGroup('Co-workers', [ada, ken, linus]);
  const empty = addGroup('Empty', []);
  const deleted = addGroup('Old friends', [grace], 0, 1);
  // Posts made without access fields go to the Friends group, not to everyone.
  state.channel.defaultAcl = { ...PUBLIC_ACL, allowGid: aclText([friends.hash]) };

  // ---- files and photos ---------------------------------------------------------------------------

  let fileTime = BASE_TIME - 60 * DAY;
  const addFile = (
    filename: string,
    filetype: string,
    content: Buffer,
    folder: StoredFile | undefined,
    extra: Partial<StoredFile> = {},
  ): StoredFile => {
    fileTime += DAY / 3;
    const file: StoredFile = {
      id: state.nextId('attach'),
      hash: random.hex(64),
      filename,
      filetype,
      filesize: content.length,
      content,
      revision: 0,
      folder: folder?.hash ?? '',
      osStorage: 1,
      isDir: 0,
      isPhoto: 0,
      flags: 0,
      created: at(fileTime),
      edited: at(fileTime),
      creator: own.hash,
      displayPath: folder ? `${folder.displayPath}/${filename}` : filename,
      acl: { ...PUBLIC_ACL },
      ...extra,
    };
    state.files.push(file);
    return file;
  };
  const folder = (name: string): StoredFile =>
    addFile(name, 'multipart/mixed', Buffer.alloc(0), undefined, { isDir: 1 });
  const documents = folder('Documents');
  const pictures = folder('Photos');
  const notes = addFile(
    'notes.txt',
    'text/plain',
    Buffer.from(Array.from({ length: 24 }, () => sentence(random, 8)).join('\n'), 'utf8'),
    documents,
  );
  addFile(
    'design.md',
    'text/markdown',
    Buffer.from(`# Design\n\n${Array.from({ length: 60 }, () => sentence(random, 10)).join('\n')}\n`, 'utf8'),
    documents,
  );
  const binary = addFile(
    'archive.bin',
    'application/octet-stream',
    Buffer.from(random.bytes(BINARY_SIZE)),
    documents,
  );
  addFile(
    'budget.csv',
    'text/csv',
    Buffer.from(
      `month,amount\n${Array.from({ length: 12 }, (_, m) => `2024-${String(m + 1).padStart(2, '0')},${random.int(100, 999)}`).join('\n')}\n`,
      'utf8',
    ),
    documents,
  );
  addFile(
    'slides.pdf',
    'application/pdf',
    Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(random.bytes(8000))]),
    documents,
  );
  const emptyFile = addFile('empty.txt', 'text/plain', Buffer.alloc(0), documents, {
    acl: { ...PUBLIC_ACL, allowGid: aclText([friends.hash]) },
  });

  const albums = ['2024-05', 'Cover Photos', 'Profile Photos', ''];
  const photoFiles: { name: string; album: string; usage: number; mimetype: string }[] = [
    { name: 'sunrise.jpg', album: '2024-05', usage: 0, mimetype: 'image/jpeg' },
    { name: 'harbour.jpg', album: '2024-05', usage: 0, mimetype: 'image/jpeg' },
    { name: 'cover.jpg', album: 'Cover Photos', usage: 2, mimetype: 'image/jpeg' },
    { name: 'avatar.png', album: 'Profile Photos', usage: 1, mimetype: 'image/png' },
    { name: 'bridge.jpg', album: '', usage: 0, mimetype: 'image/jpeg' },
  ];
  let firstPhoto: { resourceId: string; album: string } | undefined;
  for (const entry of photoFiles) {
    const scales = [0, 1, 2].map((scale) => {
      const size = [6000, 1800, 400][scale] ?? 400;
      const marker = entry.mimetype === 'image/png' ? [0x89, 0x50, 0x4e, 0x47] : [0xff, 0xd8, 0xff, 0xe0];
      return Buffer.concat([Buffer.from(marker), Buffer.from(random.bytes(size))]);
    });
    const original = scales[0] ?? Buffer.alloc(0);
    const file = addFile(entry.name, entry.mimetype, original, pictures, { isPhoto: 1 });
    firstPhoto ??= { resourceId: file.hash, album: entry.album };
    scales.forEach((content, scale) => {
      state.photos.push({
        id: state.nextId('photo'),
        resourceId: file.hash,
        album: entry.album,
        title: entry.name.replace(/\.\w+$/, ''),
        description: sentence(random, 5),
        filename: entry.name,
        mimetype: entry.mimetype,
        width: [1600, 640, 320][scale] ?? 320,
        height: [1200, 480, 240][scale] ?? 240,
        scale,
        usage: entry.usage,
        created: file.created,
        edited: file.edited,
        content,
        acl: { ...PUBLIC_ACL },
      });
    });
  }

  // ---- items ---------------------------------------------------------------------------------------

  const connections = [ada, grace, linus, margaret];
  const addItem = (
    fields: Partial<StoredItem> & Pick<StoredItem, 'created' | 'ownerXchan' | 'authorXchan' | 'body'>,
    parent?: StoredItem,
  ): StoredItem => {
    const id = state.nextId('item');
    const author = state.xchans.get(fields.authorXchan);
    const host = author?.address.split('@')[1] ?? HUB_HOST;
    const mid = `${random.hex(64)}@${host}`;
    const item: StoredItem = {
      id,
      mid,
      parent: parent?.id ?? id,
      parentMid: parent?.mid ?? mid,
      thrParent: parent?.mid ?? mid,
      edited: fields.created,
      expires: '0001-01-01 00:00:00',
      commented: fields.created,
      received: fields.created,
      changed: fields.created,
      sourceXchan: '',
      mimetype: 'text/bbcode',
      title: '',
      app: '',
      verb: 'Create',
      objType: parent ? 'Note' : 'Article',
      location: '',
      coord: '',
      layoutMid: '',
      plink: '',
      attach: '',
      acl: { ...PUBLIC_ACL },
      commentPolicy: 'contacts',
      itemPrivate: 0,
      itemOrigin: fields.authorXchan === own.hash ? 1 : 0,
      itemWall: 0,
      itemConsensus: 0,
      itemNocomment: 0,
      itemDeleted: 0,
      itemType: 0,
      categories: [],
      iids: [],
      ...fields,
    };
    if (item.plink === '') {
      const owner = state.xchans.get(item.ownerXchan);
      item.plink = `${owner?.url ?? ''}?mid=${encodeURIComponent(item.mid)}`;
    }
    state.items.push(item);
    if (parent) {
      parent.commented = item.created > parent.commented ? item.created : parent.commented;
      parent.changed = parent.commented;
    }
    return item;
  };
  const addComments = (top: StoredItem, count: number, authors: XchanRecord[], wall: number): number => {
    const start = Date.parse(`${top.created.replace(' ', 'T')}Z`);
    for (let c = 0; c < count; c++) {
      const author = authors[c % authors.length] ?? own;
      addItem(
        {
          created: at(start + (c + 1) * 3_600_000 + random.int(0, 3_000_000)),
          ownerXchan: top.ownerXchan,
          authorXchan: author.hash,
          body: sentence(random, random.int(4, 12)),
          itemWall: wall,
          acl: top.acl,
          itemPrivate: top.itemPrivate,
        },
        top,
      );
    }
    return count;
  };

  const OWN_THREADS = 18;
  let ownPost: ChannelFixtures['ownPost'] | undefined;
  for (let t = 0; t < OWN_THREADS; t++) {
    const restricted = t % 6 === 4;
    const acl: Acl = restricted ? { ...PUBLIC_ACL, allowGid: aclText([friends.hash]) } : { ...PUBLIC_ACL };
    const top = addItem({
      created: at(BASE_TIME + t * 5 * DAY + random.int(0, 36_000) * 1000),
      ownerXchan: own.hash,
      authorXchan: own.hash,
      title: t % 3 === 0 ? sentence(random, 3).replace(/\.$/, '') : '',
      body: `${sentence(random, random.int(6, 16))}\n\n[b]${sentence(random, 3)}[/b] [url=https://example.org/${t}]link[/url]`,
      itemWall: 1,
      acl,
      itemPrivate: restricted ? 1 : 0,
      itemNocomment: t === 7 ? 1 : 0,
      itemConsensus: t === 9 ? 1 : 0,
      categories: t % 4 === 0 ? ['forge', 'notes'] : [],
    });
    const comments = t === 7 ? 0 : addComments(top, t % 4, [ada, grace, own], 1);
    if (t === 2) ownPost = { id: top.id, mid: top.mid, comments };
  }

  const NETWORK_THREADS = 17;
  let networkPost: ChannelFixtures['networkPost'] | undefined;
  for (let t = 0; t < NETWORK_THREADS; t++) {
    const author = connections[t % connections.length] ?? ada;
    const top = addItem({
      created: at(BASE_TIME + 12 * 3_600_000 + t * 4 * DAY + random.int(0, 36_000) * 1000),
      ownerXchan: author.hash,
      authorXchan: author.hash,
      body: sentence(random, random.int(6, 20)),
      itemWall: 0,
    });
    const others = connections.filter((each) => each !== author);
    const comments = addComments(top, (t * 7) % 4, [...others.slice(0, 2), own], 0);
    if (t === 3) networkPost = { id: top.id, mid: top.mid, comments };
  }

  // ---- configuration and events ----------------------------------------------------------------------

  state.config.push(
    { id: state.nextId('pconfig'), cat: 'system', k: 'timezone', v: 'UTC' },
    { id: state.nextId('pconfig'), cat: 'system', k: 'itemspage', v: '10' },
    { id: state.nextId('pconfig'), cat: 'system', k: 'use_browser_location', v: '0' },
  );
  for (let e = 0; e < 2; e++) {
    const start = BASE_TIME + (40 + e * 30) * DAY;
    state.events.push({
      id: state.nextId('event'),
      hash: random.hex(64),
      summary: sentence(random, 3),
      dtstart: at(start),
      dtend: at(start + 2 * 3_600_000),
      location: e === 0 ? 'Harbour hall' : '',
    });
  }

  const seededFile = (file: StoredFile): SeededFile => ({
    id: file.id,
    hash: file.hash,
    filename: file.filename,
    size: file.content.length,
    sha256: sha256(file.content),
  });
  if (!ownPost || !networkPost || !firstPhoto) throw new Error('channel seed is incomplete');

  return {
    nickname,
    email,
    password,
    fixtures: {
      binaryFile: seededFile(binary),
      textFile: seededFile(notes),
      emptyFile: seededFile(emptyFile),
      folder: seededFile(documents),
      fileCount: state.files.length,
      photo: { ...firstPhoto, scales: 3 },
      albums,
      groups: { friends, family, coworkers, empty, deleted },
      connections: {
        self: connection(own),
        ada: connection(ada),
        grace: connection(grace),
        linus: connection(linus),
        ken: connection(ken),
        margaret: connection(margaret),
        barbara: connection(barbara),
      },
      ownPost,
      networkPost,
      ownThreads: OWN_THREADS,
      networkThreads: NETWORK_THREADS,
    },
  };
}

/**
 * Hundreds of posts created in one second, as an import, a bot or a busy hub makes them: copies of
 * an existing thread top (the channel's own wall posts, or posts of its network), with their own
 * ids and message ids. Returns their message ids.
 */
export function seedPostBurst(
  state: ChannelState,
  options: { count: number; created: string; own: boolean },
): string[] {
  const model = state
    .threadTops()
    .find((top) => (top.itemWall === 1 && top.ownerXchan === state.channel.hash) === options.own);
  if (!model) throw new Error('the channel seed has no thread top to copy');
  const random = new Prng(`burst/${options.created}/${String(options.own)}/${state.items.length}`);
  const mids: string[] = [];
  for (let index = 0; index < options.count; index++) {
    const id = state.nextId('item');
    const mid = `${random.hex(64)}@${model.mid.split('@')[1] ?? 'hub.example.org'}`;
    state.items.push({
      ...model,
      id,
      mid,
      parent: id,
      parentMid: mid,
      thrParent: mid,
      created: options.created,
      edited: options.created,
      commented: options.created,
      received: options.created,
      changed: options.created,
      title: `Burst ${index + 1}`,
      body: `Post ${index + 1} of ${options.count}, all made in the same second.`,
      plink: `${model.plink.split('?')[0] ?? ''}?mid=${encodeURIComponent(mid)}`,
      categories: [],
      iids: [],
    });
    mids.push(mid);
  }
  return mids;
}
