import { Box, Button, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { ImageStore } from '../frames/image-store.ts';
import { usePlaybackActor } from '../playback/playback-context.tsx';
import type { PlaybackActorRef } from '../playback/playback.machine.ts';
import { useActiveToolStore } from '../tools/active-tool.tsx';
import { useAnnotationSession } from '../annotations/annotation-session.tsx';
import { formatBytes, formatFrameTime, readDevMetrics, sameMetrics, type DevMetrics } from './dev-metrics.ts';
import { FrameTimeSampler, type FrameTimeSamplerOptions } from './frame-time-sampler.ts';
import { connectInspector, loadInspectModule, type DevInspector, type LoadInspectModule } from './inspector.ts';

/** A few refreshes a second: readable, and the overlay never renders React once per frame. */
export const DEV_OVERLAY_REFRESH_MS = 250;

type InspectorState = { status: 'loading' } | { status: 'ready'; inspector: DevInspector } | { status: 'unavailable' };

/** Loads and connects the inspector while mounted (that is, only in developer mode). */
function useDevInspector(actor: PlaybackActorRef, load: LoadInspectModule): InspectorState {
  const [state, setState] = useState<InspectorState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let connected: DevInspector | null = null;
    connectInspector(actor, load).then(
      (inspector) => {
        if (cancelled) return inspector.dispose();
        connected = inspector;
        setState({ status: 'ready', inspector });
      },
      (error: unknown) => {
        // Offline, or the chunk is gone after a deploy: the overlay still works without it.
        console.warn('The XState inspector could not be loaded', error);
        if (!cancelled) setState({ status: 'unavailable' });
      },
    );
    return () => {
      cancelled = true;
      connected?.dispose();
    };
  }, [actor, load]);
  return state;
}

export interface DevOverlayProps {
  store: ImageStore;
  /** For tests: how the inspector package is loaded and how paints are awaited. */
  loadInspector?: LoadInspectModule;
  sampler?: FrameTimeSamplerOptions;
}

/**
 * Developer mode (issue 5, dev=true): frame time, frames loaded, memory estimates and the
 * playback and tool states, over the review. It lets every pointer event through to the panels
 * except on its own button. Needs the playback and active-tool providers, as the review has.
 */
export function DevOverlay({ store, loadInspector = loadInspectModule, sampler: samplerOptions }: DevOverlayProps) {
  const actor = usePlaybackActor();
  const tools = useActiveToolStore();
  const annotations = useAnnotationSession()?.store ?? null;
  const interaction = () => annotations?.getSnapshot().interaction ?? null;
  const [sampler] = useState(() => new FrameTimeSampler(samplerOptions));
  const [metrics, setMetrics] = useState<DevMetrics>(() => readDevMetrics(store, null, actor.getSnapshot(), tools.get(), interaction()));
  const inspector = useDevInspector(actor, loadInspector);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => sampler.connect(store), [sampler, store]);

  // Polled rather than subscribed: the store and the actor change every frame while playing.
  useEffect(() => {
    const refresh = () => {
      const next = readDevMetrics(store, sampler.median(), actor.getSnapshot(), tools.get(), annotations?.getSnapshot().interaction ?? null);
      setMetrics((previous) => (sameMetrics(previous, next) ? previous : next));
    };
    const id = setInterval(refresh, DEV_OVERLAY_REFRESH_MS);
    return () => clearInterval(id);
  }, [store, sampler, actor, tools, annotations]);

  const rows: [label: string, value: string, testId: string][] = [
    ['Frame time (median)', formatFrameTime(metrics.frameTimeMs), 'dev-frame-time'],
    ['B-mode frames', `${metrics.bmodeLoaded} / ${metrics.bmodeCount}`, 'dev-bmode-frames'],
    ['Angio frames', `${metrics.angioLoaded} / ${metrics.angioCount}`, 'dev-angio-frames'],
    ['Textures (est.)', formatBytes(metrics.textureBytes), 'dev-texture-bytes'],
    ['Frame data', formatBytes(metrics.frameDataBytes), 'dev-frame-data-bytes'],
    ['Playback', `${metrics.playbackState}${metrics.playbackManual ? ' (manual)' : ''}`, 'dev-playback'],
    ['Tool', `${metrics.tool ?? 'none'}${metrics.interaction ? ` · ${metrics.interaction}` : ''}`, 'dev-tool'],
  ];

  return (
    <Box
      data-testid="dev-overlay"
      role="status"
      // A status region would otherwise announce the figures several times a second.
      aria-live="off"
      aria-label="Developer overlay"
      position="fixed"
      bottom="3"
      insetStart="50%"
      transform="translateX(-50%)"
      zIndex="sticky"
      pointerEvents="none"
      bg="blackAlpha.800"
      color="white"
      borderRadius="md"
      px="3"
      py="2"
      fontFamily="mono"
      fontSize="xs"
      data-frame-time-ms={metrics.frameTimeMs ?? ''}
      data-texture-bytes={metrics.textureBytes}
      data-frame-data-bytes={metrics.frameDataBytes}
      data-playback-state={metrics.playbackState}
      data-playback-manual={String(metrics.playbackManual)}
    >
      <Box as="dl" display="grid" gridTemplateColumns="auto auto" columnGap="3">
        {rows.map(([label, value, testId]) => (
          <Box key={testId} display="contents">
            <Text as="dt" color="whiteAlpha.700">
              {label}
            </Text>
            <Text as="dd" data-testid={testId}>
              {value}
            </Text>
          </Box>
        ))}
      </Box>
      <Box mt="1">
        {inspector.status === 'ready' ? (
          <Button size="2xs" variant="subtle" pointerEvents="auto" onClick={() => setBlocked(!inspector.inspector.open())}>
            Open XState inspector
          </Button>
        ) : (
          <Text color="whiteAlpha.700">{inspector.status === 'loading' ? 'Loading the inspector…' : 'The inspector is unavailable.'}</Text>
        )}
        {blocked ? <Text color="orange.300">The inspector window was blocked; allow pop-ups for this site.</Text> : null}
      </Box>
    </Box>
  );
}
