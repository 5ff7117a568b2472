/**
 * The DICOM C-STORE receiver (DIMSE SCP): an IVUS console or a PACS pushes studies to one of the
 * tenants' AE titles; each association's instances are written to a fresh directory as DICOM Part 10
 * files in the transfer syntax they arrived in (never transcoded) and handed on once the association
 * is released. An aborted association, or one over its byte budget, leaves nothing behind.
 *
 * Who may push (issue 24): the called AE title names the tenant, and the calling AE title (and the
 * address it calls from) must be one the tenant's administrators registered; any other caller is
 * rejected at association, before any data. One address holds at most `maxAssociationsPerAddress`
 * connections and a silent one is aborted after `idleTimeoutSeconds`, so idle connections cannot
 * take every slot. Every association, accepted or rejected, is reported to `onAudit` once it is over.
 *
 * DIMSE comes from dcmjs-dimse. Its SCP streams a C-STORE's dataset fragments into a Writable we
 * provide (`createStoreWritableStream`), so a 1 GB pullback goes straight to disk. Where the library
 * falls short we compensate here (see the comments): its server cannot bind a host or report port 0,
 * it trusts any announced PDU length, it echoes an SCU's "unlimited" maximum PDU length back as ours,
 * it ignores a full Writable after the first fragment, and it logs every association to the console.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { finished, type Writable } from 'node:stream';
import dimse from 'dcmjs-dimse';
import { ACCEPTED_TRANSFER_SYNTAXES } from '../dicom/transfer-syntaxes.ts';
import { InstanceWriter, instanceFileName, part10Header, trimUid } from './part10-writer.ts';
import { RECEIVED_SOP_CLASSES, VERIFICATION_SOP_CLASS } from './received-sop-classes.ts';

export { part10Header } from './part10-writer.ts';
export { RECEIVED_SOP_CLASSES } from './received-sop-classes.ts';

export type ReceivedFile = { fileName: string; path: string; size: number };
export type ReceivedAssociation = { tenantId: string; callingAeTitle: string; calledAeTitle: string; remoteAddress: string; dir: string; files: ReceivedFile[] };
/** How an association ended: rejected at association, released (its instances handed on), or aborted (nothing kept). */
export type AssociationOutcome = 'rejected' | 'released' | 'aborted';
export type AssociationReport = {
  tenantId: string;
  callingAeTitle: string;
  calledAeTitle: string;
  remoteAddress: string;
  outcome: AssociationOutcome;
  /** Why it was rejected or aborted ('' for a release). */
  reason: string;
  /** Instances handed on to the import (0 unless released). */
  instances: number;
};
export type CallerCheck = { tenantId: string; callingAeTitle: string; remoteAddress: string };
export type DimseReceiverOptions = {
  /** Interface to listen on (all interfaces when left out). */
  host?: string;
  /** 0 = a free port. */
  port: number;
  /** Called AE title -> tenant id; an association calling any other AE title is rejected (called AE not recognised). */
  aeTitles: ReadonlyMap<string, string>;
  /** Whether the tenant registered this calling AE title from this address; a refusal's reason is logged and audited. */
  authorizeCaller: (call: CallerCheck) => Promise<{ accepted: true } | { accepted: false; reason: string }>;
  /** Connections one remote address may hold at once; more are closed as they arrive. */
  maxAssociationsPerAddress: number;
  /** A connection silent this long (before or within its association) is aborted. */
  idleTimeoutSeconds: number;
  /** Called once per association of a known tenant when it is over (rejected, released or aborted); must not throw. */
  onAudit: (report: AssociationReport) => Promise<void>;
  /** Where each association's instances are written (one fresh subdirectory per association). */
  tempRoot: string;
  /** Bytes one association may bring; beyond it the C-STORE answers an out-of-resources failure and nothing of the association is imported. */
  maxAssociationBytes: number;
  log: { info: (...a: unknown[]) => void; warn: (...a: unknown[]) => void };
  /** Called once per released association that stored at least one instance; the receiver removes `dir` after it settles (the callback must move or copy what it keeps). */
  onAssociation: (received: ReceivedAssociation) => Promise<void>;
};
export type DimseReceiver = { port: number; close(): Promise<void> };

const { Scp, Dataset, constants, responses } = dimse;
const { PresentationContextResult, RejectResult, RejectSource, RejectReason, Status } = constants;
type Association = InstanceType<typeof dimse.association.Association>;
type PresentationContext = InstanceType<typeof dimse.association.PresentationContext>;
type CStoreRequest = InstanceType<typeof dimse.requests.CStoreRequest>;
type CEchoRequest = InstanceType<typeof dimse.requests.CEchoRequest>;
type CStoreResponse = InstanceType<typeof dimse.responses.CStoreResponse>;
type CEchoResponse = InstanceType<typeof dimse.responses.CEchoResponse>;

// dcmjs-dimse logs each association and command at info level to the console through loglevel's
// root logger; everything this receiver needs said goes through the server's logger instead.
dimse.log.setLevel('silent');

/** Largest PDU we accept, announced in A-ASSOCIATE-AC (a P-DATA-TF fragment is at most this). */
const RECEIVE_MAX_PDU = 256 * 1024;
/** A PDU announcing more ends the connection: dcmjs-dimse buffers each PDU whole, whatever its announced length. */
const PDU_LIMIT = 1024 * 1024;
const MAX_CONNECTIONS = 64;
const CLOSE_WAIT_MS = 10_000;
/** C-STORE "Refused: Out of Resources" (PS3.4 B.2.3). */
const STATUS_OUT_OF_RESOURCES = 0xa700;
type Shared = { options: DimseReceiverOptions; track: (task: Promise<void>) => void };
/** The address as the tenant's administrator would write it: an IPv4 client of a dual-stack socket without its ::ffff: prefix. */
const plainAddress = (socket: net.Socket) => socket.remoteAddress?.replace(/^::ffff:(?=\d)/, '') ?? '';

/** One connection: at most one association, its instances, and what happens to them when it ends. */
class ReceiverScp extends Scp {
  private readonly connection: net.Socket;
  private readonly shared: Shared;
  private state: 'idle' | 'authorizing' | 'open' | 'ended' = 'idle';
  private who = { callingAeTitle: '', calledAeTitle: '', remoteAddress: '' };
  private tenantId = '';
  private dir: Promise<string> | null = null;
  private readonly files = new Map<string, ReceivedFile>();
  private received = 0;
  private overBudget = false;
  private writer: InstanceWriter | null = null;
  private paused = false;
  private readonly pduHeader = Buffer.alloc(6);
  private pduHeaderFill = 0;
  private pduRemaining = 0;

  constructor(socket: net.Socket, shared: Shared) {
    // The library aborts a connection sending no PDU within these (checked each second).
    const idleMs = shared.options.idleTimeoutSeconds * 1000;
    super(socket, { associationTimeout: idleMs, pduTimeout: idleMs });
    this.connection = socket;
    this.shared = shared;
    this.who.remoteAddress = plainAddress(socket);
    // The library's own server marks its connections as connected; without connectedTime its
    // association timeout never fires.
    Object.assign(this, { connected: true, connectedTime: Date.now() });
    // Registered after the library's data listener: by now the chunk's complete PDUs are written.
    socket.on('data', (chunk: Buffer) => {
      if (this.withinPduLimit(chunk)) this.holdWhileDiskBehind();
    });
    socket.on('close', () => this.end('aborted', 'the connection closed without a release'));
    this.on('networkError', (error: Error) => {
      const idle = error.message.startsWith('Connection timeout');
      const reason = idle ? `silent for ${shared.options.idleTimeoutSeconds} s` : error.message;
      this.shared.options.log.warn({ ...this.who, reason }, idle ? 'DICOM connection aborted: idle' : 'DICOM connection error');
      this.end('aborted', reason);
      socket.destroy();
    });
  }

  override associationRequested(association: Association): void {
    const log = this.shared.options.log;
    this.who.callingAeTitle = association.getCallingAeTitle().trim();
    this.who.calledAeTitle = association.getCalledAeTitle().trim();
    const tenantId = this.state === 'idle' ? this.shared.options.aeTitles.get(this.who.calledAeTitle) : undefined;
    if (tenantId === undefined) {
      log.warn(this.who, 'DICOM association rejected: called AE title not recognised');
      this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized);
      this.state = 'ended';
      this.connection.end();
      return;
    }
    this.tenantId = tenantId;
    this.state = 'authorizing';
    const call = { tenantId, callingAeTitle: this.who.callingAeTitle, remoteAddress: this.who.remoteAddress };
    this.shared.options.authorizeCaller(call).then(
      (verdict) => (verdict.accepted ? this.accept(association) : this.rejectCaller(verdict.reason)),
      (error: unknown) => {
        // Nobody can say whether the caller is registered: a transient refusal, it may try again.
        log.warn({ ...this.who, reason: error instanceof Error ? error.message : String(error) }, 'DICOM caller could not be checked');
        this.rejectCaller('the registered callers could not be read', [RejectResult.Transient, RejectSource.ServiceProviderPresentation, RejectReason.TemporaryCongestion]);
      },
    );
  }

  /** Refuses a caller the tenant did not register: A-ASSOCIATE-RJ "calling AE title not recognised", before any data. */
  private rejectCaller(reason: string, [result, source, rejectReason] = [RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CallingAeNotRecognized]): void {
    if (this.state !== 'authorizing') return;
    this.shared.options.log.warn({ ...this.who, tenantId: this.tenantId, reason }, 'DICOM association rejected: caller not registered');
    this.sendAssociationReject(result, source, rejectReason);
    this.state = 'ended';
    this.connection.end();
    this.report('rejected', reason, 0);
  }

  private accept(association: Association): void {
    // The connection closed while the caller was looked up.
    if (this.state !== 'authorizing') return;
    const log = this.shared.options.log;
    const tenantId = this.tenantId;
    for (const { context } of association.getPresentationContexts()) {
      const abstract = context.getAbstractSyntaxUid();
      if (abstract !== VERIFICATION_SOP_CLASS && !RECEIVED_SOP_CLASSES.has(abstract)) {
        context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
        continue;
      }
      // The first proposed syntax the import reads, as it is: nothing is transcoded.
      const syntax = context.getTransferSyntaxUids().find((uid) => uid in ACCEPTED_TRANSFER_SYNTAXES);
      if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
      else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
    }
    // The library announces min(the SCU's maximum, ours), and an SCU's 0 means "unlimited": ours always.
    association.setMaxPduLength(RECEIVE_MAX_PDU);
    this.state = 'open';
    this.sendAssociationAccept();
    log.info({ ...this.who, tenantId }, 'DICOM association accepted');
  }

  override associationReleaseRequested(): void {
    this.sendAssociationReleaseResponse();
    // A release in the middle of an instance is a broken association: nothing of it is kept.
    if (this.writer) this.end('aborted', 'released during a C-STORE');
    else this.end('released', '');
  }

  override abort(): void {
    this.end('aborted', 'aborted by the peer');
    this.connection.destroy();
  }

  override cEchoRequest(request: CEchoRequest, callback: (response: CEchoResponse) => void): void {
    const response = responses.CEchoResponse.fromRequest(request);
    response.setStatus(Status.Success);
    callback(response);
  }

  override createStoreWritableStream(context: PresentationContext, request: CStoreRequest): Writable {
    const sopInstanceUid = trimUid(request.getAffectedSopInstanceUid());
    const header = part10Header({
      sopClassUid: trimUid(request.getAffectedSopClassUid()),
      sopInstanceUid,
      transferSyntaxUid: context.getAcceptedTransferSyntaxUid() ?? '',
      sourceAeTitle: this.who.callingAeTitle,
    });
    const target = this.overBudget || this.state !== 'open' ? null : {
      fileName: instanceFileName(sopInstanceUid, this.files.size + 1),
      dir: (this.dir ??= fs.mkdtemp(path.join(this.shared.options.tempRoot, 'dimse-'))),
    };
    this.writer = new InstanceWriter(target, header, (bytes) => this.admit(bytes));
    return this.writer;
  }

  override createDatasetFromStoreWritableStream(writable: Writable, context: PresentationContext, callback: (dataset: InstanceType<typeof Dataset>) => void): void {
    // The dataset is on disk, not in memory: the C-STORE handler gets an empty one once the file is closed.
    finished(writable, () => callback(new Dataset({}, context.getAcceptedTransferSyntaxUid())));
  }

  override cStoreRequest(request: CStoreRequest, callback: (response: CStoreResponse) => void): void {
    const writer = this.writer;
    this.writer = null;
    const response = responses.CStoreResponse.fromRequest(request);
    if (this.state === 'open' && !this.overBudget && writer?.fileName && writer.filePath && !writer.failed) {
      // The same instance sent twice is one file, the last one.
      this.files.set(writer.fileName, { fileName: writer.fileName, path: writer.filePath, size: writer.size });
      response.setStatus(Status.Success);
    } else {
      if (writer?.failed) this.shared.options.log.warn({ ...this.who, reason: writer.failed.message }, 'DICOM instance could not be written');
      response.setStatus(STATUS_OUT_OF_RESOURCES);
    }
    callback(response);
  }

  /** Counts a dataset fragment against the association's budget; false once it is over. */
  private admit(bytes: number): boolean {
    if (this.overBudget) return false;
    this.received += bytes;
    if (this.received <= this.shared.options.maxAssociationBytes) return true;
    this.overBudget = true;
    const { maxAssociationBytes } = this.shared.options;
    this.shared.options.log.warn({ ...this.who, maxAssociationBytes }, 'DICOM association over its byte budget: its instances are refused and none is imported');
    return false;
  }

  /** The association's audit row (through onAudit), once it is over; never throws. */
  private report(outcome: AssociationOutcome, reason: string, instances: number): void {
    const task = this.shared.options.onAudit({ tenantId: this.tenantId, ...this.who, outcome, reason, instances }).catch((error: unknown) => {
      this.shared.options.log.warn({ ...this.who, reason: error instanceof Error ? error.message : String(error) }, 'DICOM association not audited');
    });
    this.shared.track(task);
  }

  /** Hands a released association's files on, or discards them; removes its directory afterwards. */
  private end(how: 'released' | 'aborted', why: string): void {
    const wasOpen = this.state === 'open';
    const wasAuthorizing = this.state === 'authorizing';
    this.state = 'ended';
    if (wasAuthorizing) this.report('aborted', why, 0);
    if (!wasOpen) return;
    const { options } = this.shared;
    const writer = this.writer;
    this.writer = null;
    const dirReady = this.dir;
    const task = (async () => {
      if (writer && !writer.closed) await new Promise((resolve) => writer.destroy().once('close', resolve));
      const dir = dirReady ? await dirReady.catch(() => null) : null;
      const files = [...this.files.values()];
      const summary = { ...this.who, tenantId: this.tenantId, instances: files.length, bytes: this.received };
      let handedOn = 0;
      try {
        if (how === 'aborted') options.log.warn({ ...summary, reason: why }, 'DICOM association ended without a release: what it brought is discarded');
        else if (this.overBudget) options.log.warn(summary, 'DICOM association released over its byte budget: nothing of it is imported');
        else if (files.length > 0 && dir) {
          options.log.info(summary, 'DICOM association released');
          handedOn = files.length;
          await options.onAssociation({ tenantId: this.tenantId, ...this.who, dir, files });
        }
      } catch (error) {
        options.log.warn({ ...summary, reason: error instanceof Error ? error.message : String(error) }, 'DICOM association could not be handed on');
      } finally {
        if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
        const overBudget = how === 'released' && this.overBudget;
        this.report(overBudget ? 'aborted' : how, overBudget ? 'over the byte budget' : why, handedOn);
      }
    })();
    this.shared.track(task);
  }

  /** Follows the PDU framing and ends a connection announcing a PDU over PDU_LIMIT. */
  private withinPduLimit(chunk: Buffer): boolean {
    for (let at = 0; at < chunk.length; ) {
      if (this.pduRemaining > 0) {
        const take = Math.min(this.pduRemaining, chunk.length - at);
        this.pduRemaining -= take;
        at += take;
        continue;
      }
      // Type, reserved, then the length (4 bytes, big endian): six bytes, maybe split across chunks.
      this.pduHeader[this.pduHeaderFill++] = chunk[at++]!;
      if (this.pduHeaderFill < 6) continue;
      this.pduHeaderFill = 0;
      this.pduRemaining = this.pduHeader.readUInt32BE(2);
      if (this.pduRemaining > PDU_LIMIT) {
        this.shared.options.log.warn({ ...this.who, pduLength: this.pduRemaining }, 'DICOM connection closed: PDU over the limit');
        this.connection.destroy();
        return false;
      }
    }
    return true;
  }

  /** The library ignores a full Writable after an instance's first fragment: pause the socket until the disk catches up. */
  private holdWhileDiskBehind(): void {
    const writer = this.writer;
    if (!writer || this.paused || !writer.writableNeedDrain) return;
    this.paused = true;
    this.connection.pause();
    const resume = () => {
      if (!this.paused) return;
      this.paused = false;
      writer.off('drain', resume).off('close', resume);
      this.connection.resume();
    };
    writer.once('drain', resume).once('close', resume);
  }
}

/** Starts listening; `close()` stops, ends open associations (discarding them) and waits up to 10 s for running callbacks. */
export async function startDimseReceiver(options: DimseReceiverOptions): Promise<DimseReceiver> {
  const running = new Set<Promise<void>>();
  const connections = new Map<net.Socket, Promise<void>>();
  const shared: Shared = {
    options,
    track: (task) => {
      running.add(task);
      void task.finally(() => running.delete(task));
    },
  };
  const perAddress = new Map<string, number>();
  const server = net.createServer((socket) => {
    const address = plainAddress(socket);
    const held = perAddress.get(address) ?? 0;
    if (held >= options.maxAssociationsPerAddress) {
      // Closed before a byte is read: one address cannot hold every slot (a console elsewhere still connects).
      options.log.warn({ remoteAddress: address, held }, 'DICOM connection refused: this address holds the most connections allowed');
      socket.destroy();
      return;
    }
    perAddress.set(address, held + 1);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    connections.set(socket, closed);
    void closed.then(() => {
      connections.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    socket.setNoDelay(true);
    // The SCP attaches itself to the socket's events.
    void new ReceiverScp(socket, shared);
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => options.log.warn({ reason: error.message }, 'DICOM receiver error'));
  const { port } = server.address() as net.AddressInfo;
  options.log.info({ port, aeTitles: [...options.aeTitles.keys()] }, 'DICOM receiver listening');

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of connections.keys()) socket.destroy();
    await Promise.all([stopped, ...connections.values()]);
    const timeout = AbortSignal.timeout(CLOSE_WAIT_MS);
    await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => timeout.addEventListener('abort', resolve))]);
  };
  return { port, close: () => (closing ??= close()) };
}
