/**
 * The echo along one A-line: for every depth sample, how strongly tissue and blood scatter (the
 * speckle is multiplied in later) and the coherent echoes of smooth, hard reflectors. Layers follow
 * the cross-section's radius functions exactly, so the truth contours sit on the drawn borders.
 */
import { angleDifferenceRad, calciumCoverage, type CrossSection } from './cross-section.ts';
import { branchOpening, echolucentCoverage, strutCover, STRUT_REVERB_MM, STRUT_SHADOW, STRUT_SPECULAR } from './echo-features.ts';
import { IMAGING_LOOKS, type TissueLevels } from './imaging-look.ts';
import { CATHETER_RADIUS_MM } from './pullback-model.ts';
import { PLAQUE_ROWS, TEXTURE_ROWS } from './tissue-texture.ts';

/** What the look changes along a line: blood's scattering and the tissue's attenuation. */
export interface EchoSettings {
  /** Blood's scattering strength relative to the adventitia. */
  readonly bloodEcho: number;
  /** Amplitude attenuation in tissue (beyond the lumen border), per mm. */
  readonly attenuationPerMm: number;
  /** The layers' echoes relative to the defaults (a calibrated look, times the frame's own levels); absent: the defaults. */
  readonly tissueLevels?: TissueLevels;
}

/** The demo look's settings. */
export const DEMO_ECHO: EchoSettings = IMAGING_LOOKS.demo;

/** Scattering strengths relative to the adventitia (1 = 0 dB). */
const PLAQUE_ECHO = 0.22;
/** The fibrous cap just under the lumen border is denser, so brighter. */
const CAP_BOOST = 0.9;
const CAP_MM = 0.1;
const MEDIA_ECHO = 0.05;
const ADVENTITIA_ECHO = 1;
const PERIVASCULAR_ECHO = 0.3;
const CALCIUM_ECHO = 2.6;
/** Coherent echo of the lumen-intima interface (the bright leading edge). */
const INTIMA_SPECULAR = 0.45;
const CALCIUM_SPECULAR = 4.5;
/** Calcium reflects coherently through its whole thickness, fading towards its back. */
const CALCIUM_BODY_SPECULAR = 1.8;
/** Second bounce between calcium and transducer, at twice the calcium's depth. */
const CALCIUM_REVERB = 0.1;
const GUIDEWIRE_SPECULAR = 7;
const GUIDEWIRE_REVERBS = [1.4, 0.6] as const;
const GUIDEWIRE_REVERB_SPACING_MM = 0.09;
/** Fraction of the echo lost behind calcium and behind the wire. */
const CALCIUM_SHADOW = 0.975;
const GUIDEWIRE_SHADOW = 0.97;

const MEDIA_THICK_MM = 0.14;
const MEDIA_THIN_MM = 0.09;
const ADVENTITIA_MM = 0.28;
/** Widths of the transitions between layers: borders are sharp, but not aliased. */
const BORDER_MM = 0.012;
const LAYER_EDGE_MM = 0.03;
const WIRE_EDGE_MM = 0.03;
/** A side branch's far wall: a band of adventitia-like tissue where the branch's lumen ends. */
const BRANCH_WALL_ECHO = 0.8;
const BRANCH_WALL_MM = 0.1;
/** Texture rows beyond the EEM are this many mm apart. */
const OUTER_ROW_MM = 0.12;

function step(u: number): number {
  return u <= -0.5 ? 0 : u >= 0.5 ? 1 : u + 0.5;
}

function bump(u: number): number {
  return u <= -1 || u >= 1 ? 0 : 1 - u * u;
}

/*
 * step(d / width) and bump(d / width) without the division where the answer is known: a sample
 * further than half a width (a whole width for the bump) from the edge is flat, and rounding the
 * quotient cannot change that (the bounds ±0.5 and ±1 are exact doubles and rounding is monotonic),
 * so they return exactly what the division would have given. Nine divisions a sample were most of
 * an A-line's cost (issue 23: generation on a first open's path to the borders).
 */
function stepAcross(d: number, width: number): number {
  return d <= -0.5 * width ? 0 : d >= 0.5 * width ? 1 : step(d / width);
}

function bumpAcross(d: number, width: number): number {
  return d <= -width || d >= width ? 0 : bump(d / width);
}

/** The texture column read at a (fractional) row, clamped to the rows there are. */
function rowGain(texture: Float32Array, row: number): number {
  const lastRow = TEXTURE_ROWS - 1;
  const clamped = row < 0 ? 0 : row > lastRow ? lastRow : row;
  const row0 = Math.floor(clamped);
  const row1 = row0 < lastRow ? row0 + 1 : lastRow;
  return texture[row0]! + (texture[row1]! - texture[row0]!) * (clamped - row0);
}

/**
 * Texture deeper than the last row, for the looks whose field of view reaches millimetres past the
 * EEM: the depth folds back and forth over the outer rows while the column fades into an unrelated
 * one (`far`, read at another angle) and back, so deep tissue does not turn into radial streaks.
 * Continuous with the last row where it starts.
 */
function deepGain(texture: Float32Array, far: Float32Array, rowsBeyond: number): number {
  const span = TEXTURE_ROWS - 1 - PLAQUE_ROWS;
  const folds = rowsBeyond / span;
  const within = folds % 2;
  const row = TEXTURE_ROWS - 1 - span * (within <= 1 ? within : 2 - within);
  const weight = 0.5 - 0.5 * Math.cos(Math.PI * folds);
  return (1 - weight) * rowGain(texture, row) + weight * rowGain(far, row);
}

/**
 * Writes the scattering strength of tissue and of blood and the coherent echo for every sample of
 * the A-line at `angleRad` (`texture` is the wall texture column at that angle, `farTexture` an unrelated
 * one for deep tissue, given by the looks other than the demo's).
 */
export function echoLine(
  section: CrossSection,
  angleRad: number,
  sampleSpacingMm: number,
  texture: Float32Array,
  tissue: Float32Array,
  blood: Float32Array,
  specular: Float32Array,
  settings: EchoSettings = DEMO_ECHO,
  farTexture?: Float32Array,
): void {
  const lumenMm = section.lumenRadiusMm(angleRad);
  const vesselMm = section.vesselRadiusMm(angleRad);
  const bloodEcho = settings.bloodEcho;
  const levels = settings.tissueLevels;
  const plaqueEcho = levels === undefined ? PLAQUE_ECHO : PLAQUE_ECHO * levels.plaque;
  const mediaEcho = levels === undefined ? MEDIA_ECHO : MEDIA_ECHO * levels.media;
  const adventitiaEcho = levels === undefined ? ADVENTITIA_ECHO : ADVENTITIA_ECHO * levels.adventitia;
  const perivascularEcho = levels === undefined ? PERIVASCULAR_ECHO : PERIVASCULAR_ECHO * levels.perivascular;
  const wallMm = vesselMm - lumenMm;
  // The media thins where plaque is thick.
  const mediaMm = MEDIA_THICK_MM - (MEDIA_THICK_MM - MEDIA_THIN_MM) * Math.min(1, wallMm);
  const mediaStartMm = vesselMm - mediaMm;
  const plaqueMm = Math.max(0.01, mediaStartMm - lumenMm);

  const calcium = calciumCoverage(section.calcium, angleRad);
  const calciumStartMm = lumenMm + (section.calcium?.depthMm ?? 0);
  // Calcium sits inside the plaque: where the plaque thins, so does the calcium.
  const calciumThicknessMm = Math.max(0.02, Math.min(section.calcium?.thicknessMm ?? 1, 0.7 * plaqueMm));
  const calciumEndMm = calciumStartMm + calciumThicknessMm;

  // The wire's front surface on this line, if the line passes through the wire at all.
  const wire = section.guidewire;
  const fromWire = angleDifferenceRad(angleRad, wire.angleRad);
  let wireCover = 0;
  let wireFrontMm = Infinity;
  if (Math.abs(fromWire) < Math.PI / 2) {
    const lateralMm = Math.abs(wire.distanceMm * Math.sin(fromWire));
    wireCover = step((wire.radiusMm - lateralMm) / WIRE_EDGE_MM);
    if (wireCover > 0) {
      const halfChordMm = Math.sqrt(Math.max(0, wire.radiusMm * wire.radiusMm - lateralMm * lateralMm));
      wireFrontMm = wire.distanceMm * Math.cos(fromWire) - halfChordMm;
    }
  }

  // Hard cases (all nothing on demo models): where a side branch opens the wall, tissue only begins
  // at the branch's far wall; an echolucent sector's plaque scatters like blood; struts sit on the border.
  const branch = branchOpening(section.branch, angleRad, lumenMm, vesselMm);
  const tissueStartMm = branch === null ? lumenMm : branch.tissueStartMm;
  const lucent = echolucentCoverage(section.echolucent, angleRad);
  const lucentEcho = lucent > 0 ? bloodEcho * section.echolucent!.echoRatio : 0;
  const intimaSpecular = (levels === undefined ? INTIMA_SPECULAR : INTIMA_SPECULAR * levels.intimaSpecular) * (lucent > 0 ? 1 - lucent * (1 - section.echolucent!.capSpecular) : 1) * (branch === null ? 1 : 1 - branch.open);
  // A deployed stent's struts lie on its own border, off the wall where they are malapposed.
  const strutMm = section.struts?.borderRadiusMm?.(angleRad) ?? lumenMm;
  const strut = strutCover(section.struts, angleRad, strutMm);
  const strutFrontMm = strutMm - 0.5 * (section.struts?.thicknessMm ?? 0);
  const strutBackMm = strutFrontMm + (section.struts?.thicknessMm ?? 0);

  const attenuationStep = Math.exp(-settings.attenuationPerMm * sampleSpacingMm);
  let attenuation = 1;
  const lastRow = TEXTURE_ROWS - 1;
  // The per-sample ramps are written out below as `d <= -half ? 0 : d >= half ? 1 : step(d / width)`
  // (stepAcross by hand): in a function this long V8 stops inlining calls, and a call per ramp per
  // sample cost more than the arithmetic (issue 23).
  const halfBorderMm = 0.5 * BORDER_MM;
  const halfLayerEdgeMm = 0.5 * LAYER_EDGE_MM;
  const perivascularEdgeMm = 4 * LAYER_EDGE_MM;
  const halfPerivascularEdgeMm = 0.5 * perivascularEdgeMm;
  for (let j = 0; j < tissue.length; j++) {
    const r = j * sampleSpacingMm;
    if (r < CATHETER_RADIUS_MM - BORDER_MM) {
      tissue[j] = 0;
      blood[j] = 0;
      specular[j] = 0;
      continue;
    }
    const fromWallMm = r - tissueStartMm;
    const inWall = fromWallMm <= -halfBorderMm ? 0 : fromWallMm >= halfBorderMm ? 1 : step(fromWallMm / BORDER_MM);
    if (r > tissueStartMm) attenuation *= attenuationStep;
    // Without calcium, wire or strut on the line their shadows are exactly 1 (1 - k · 0).
    let inCalcium = 0;
    let calciumShadow = 1;
    if (calcium > 0) {
      inCalcium = calcium * (stepAcross(r - calciumStartMm, LAYER_EDGE_MM) - stepAcross(r - calciumEndMm, LAYER_EDGE_MM));
      calciumShadow = 1 - CALCIUM_SHADOW * calcium * stepAcross(r - calciumEndMm, LAYER_EDGE_MM);
    }
    const wireShadow = wireCover > 0 ? 1 - GUIDEWIRE_SHADOW * (wireCover * stepAcross(r - wireFrontMm - 0.03, 0.02)) : 1;
    const strutShadow = strut > 0 ? 1 - STRUT_SHADOW * strut * stepAcross(r - strutFrontMm, BORDER_MM) : 1;
    // Outside the wall (inWall 0) the tissue's echo is multiplied by 0: the renderer adds tissue
    // speckle only where it is positive, so it is not worked out there at all.
    let tissueEcho = 0;
    if (inWall !== 0) {
      // Which texture row this depth reads: plaque rows stretch over the plaque, outer rows are fixed in mm.
      const row =
        r < mediaStartMm
          ? ((r - lumenMm) / plaqueMm) * (PLAQUE_ROWS - 1)
          : r < vesselMm
            ? PLAQUE_ROWS - 1
            : PLAQUE_ROWS + (r - vesselMm) / OUTER_ROW_MM;
      let gain: number;
      if (row > lastRow && farTexture !== undefined) {
        gain = deepGain(texture, farTexture, row - lastRow);
      } else {
        // rowGain(texture, row), by hand.
        const clamped = row < 0 ? 0 : row > lastRow ? lastRow : row;
        const row0 = Math.floor(clamped);
        const row1 = row0 < lastRow ? row0 + 1 : lastRow;
        gain = texture[row0]! + (texture[row1]! - texture[row0]!) * (clamped - row0);
      }

      const fromLumenMm = r - lumenMm;
      // Past the cap its weight is 0 whatever the quotient rounds to.
      const capWeight = r > lumenMm ? (fromLumenMm >= CAP_MM ? 0 : Math.max(0, 1 - fromLumenMm / CAP_MM)) : 1;
      let echo = plaqueEcho * (1 + CAP_BOOST * capWeight);
      const fromMediaMm = r - mediaStartMm;
      echo += (mediaEcho - echo) * (fromMediaMm <= -halfLayerEdgeMm ? 0 : fromMediaMm >= halfLayerEdgeMm ? 1 : step(fromMediaMm / LAYER_EDGE_MM));
      const fromVesselMm = r - vesselMm;
      echo += (adventitiaEcho - echo) * (fromVesselMm <= -halfLayerEdgeMm ? 0 : fromVesselMm >= halfLayerEdgeMm ? 1 : step(fromVesselMm / LAYER_EDGE_MM));
      // Perivascular tissue is patchier than the wall (fat next to fibrous strands): twice the contrast in dB.
      const fromAdventitiaMm = fromVesselMm - ADVENTITIA_MM;
      echo +=
        (perivascularEcho * gain - echo) *
        (fromAdventitiaMm <= -halfPerivascularEdgeMm ? 0 : fromAdventitiaMm >= halfPerivascularEdgeMm ? 1 : step(fromAdventitiaMm / perivascularEdgeMm));
      echo *= gain;
      if (lucent > 0) echo += (lucentEcho - echo) * lucent * (1 - stepAcross(r - mediaStartMm, LAYER_EDGE_MM));
      if (branch !== null) echo += (BRANCH_WALL_ECHO * gain - echo) * branch.open * bumpAcross(r - tissueStartMm - BRANCH_WALL_MM, BRANCH_WALL_MM);
      if (calcium > 0) echo += (CALCIUM_ECHO - echo) * inCalcium;
      tissueEcho = echo * inWall * attenuation * wireShadow * calciumShadow * strutShadow;
    }
    tissue[j] = tissueEcho;
    const fromCatheterMm = r - CATHETER_RADIUS_MM;
    blood[j] =
      bloodEcho * (1 - inWall) * wireShadow * strutShadow * (fromCatheterMm <= -halfBorderMm ? 0 : fromCatheterMm >= halfBorderMm ? 1 : step(fromCatheterMm / BORDER_MM));

    const fromIntimaMm = fromWallMm - BORDER_MM;
    let coherent = intimaSpecular * (fromIntimaMm <= -BORDER_MM || fromIntimaMm >= BORDER_MM ? 0 : bump(fromIntimaMm / BORDER_MM)) * wireShadow;
    if (strut > 0) {
      // A metal strut: a strong echo off its front, a weaker one off its back, a ring-down behind.
      coherent +=
        strut *
        wireShadow *
        (STRUT_SPECULAR * bumpAcross(r - strutFrontMm, BORDER_MM) +
          0.25 * STRUT_SPECULAR * bumpAcross(r - strutBackMm, BORDER_MM) +
          0.1 * STRUT_SPECULAR * bumpAcross(r - strutBackMm - STRUT_REVERB_MM, BORDER_MM));
    }
    if (calcium > 0) {
      coherent +=
        calcium *
          (CALCIUM_SPECULAR * bumpAcross(r - calciumStartMm - BORDER_MM, 1.5 * BORDER_MM) + CALCIUM_REVERB * bumpAcross(r - 2 * calciumStartMm, 2 * BORDER_MM)) +
        inCalcium * CALCIUM_BODY_SPECULAR * Math.max(0.3, 1 - (r - calciumStartMm) / calciumThicknessMm);
    }
    if (wireCover > 0) {
      let wireEcho = GUIDEWIRE_SPECULAR * bumpAcross(r - wireFrontMm, BORDER_MM);
      for (let k = 0; k < GUIDEWIRE_REVERBS.length; k++) {
        wireEcho += GUIDEWIRE_REVERBS[k]! * bumpAcross(r - wireFrontMm - (k + 1) * GUIDEWIRE_REVERB_SPACING_MM, BORDER_MM);
      }
      coherent += wireCover * wireEcho;
    }
    specular[j] = coherent;
  }
}
