// The app's Content-Security-Policy forbids eval; this module gives Pixi its eval-free shader and uniform code paths.
import 'pixi.js/unsafe-eval';
// What the panels draw with, registered here: the Applications skip pixi's automatic browser
// extensions (see image-panel.tsx), which this app does not use.
import 'pixi.js/mesh';
import 'pixi.js/graphics';
import { BufferImageSource, Graphics, GlProgram, Mesh, MeshGeometry, Shader, Texture, UniformGroup, type Application, type WebGLRenderer } from 'pixi.js';
import fragment from '../../../../shaders/panel.frag?raw';
import vertex from '../../../../shaders/panel.vert?raw';
import type { BrightnessContrast } from '../view/brightness-contrast.ts';
import { viewTransform, type FitMode, type Size, type ViewState, type ViewTransform } from '../view/view-transform.ts';

/** What a panel shows: an 8-bit gray image, or black of that size while its bytes have not arrived. */
export interface PanelImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array | null;
  /** Bumped when the bytes of the same buffer change (the L-mode fills its one buffer in place). */
  readonly revision?: number;
}

/**
 * One panel's Pixi scene, driven imperatively: a unit quad drawn with the panel shader from one
 * r8 texture, and an overlay in screen coordinates. The texture's storage is reused from slice to
 * slice; only its bytes are re-uploaded, straight from the image store's view (no copy).
 */
export class PanelRenderer {
  private readonly app: Application;
  private readonly fitMode: FitMode;
  private readonly geometry: MeshGeometry;
  private readonly uniforms: UniformGroup<{ uBrightness: { value: number; type: 'f32' }; uContrast: { value: number; type: 'f32' } }>;
  private readonly shader: Shader;
  private readonly mesh: Mesh<MeshGeometry, Shader>;
  readonly overlay: Graphics;
  private texture: Texture | null = null;
  private blank: Uint8Array | null = null;
  private uploaded: { buffer: ArrayBufferLike; offset: number; revision: number | undefined } | null = null;
  private size: Size = { width: 1, height: 1 };

  constructor(app: Application, fitMode: FitMode) {
    this.app = app;
    this.fitMode = fitMode;
    const gl = (app.renderer as WebGLRenderer).gl as WebGL2RenderingContext | undefined;
    // Rows of an r8 image are not 4-byte aligned when the width is not a multiple of 4 (an
    // L-mode of 150 frames): WebGL's default unpack alignment would shear them. Pixi leaves it alone.
    gl?.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    this.geometry = new MeshGeometry({
      positions: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]),
      uvs: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    });
    this.uniforms = new UniformGroup({ uBrightness: { value: 0, type: 'f32' }, uContrast: { value: 1, type: 'f32' } });
    this.texture = this.createTexture(1, 1);
    this.shader = new Shader({
      glProgram: GlProgram.from({ vertex, fragment, name: 'review-panel' }),
      resources: { uTexture: this.texture.source, panelUniforms: this.uniforms },
    });
    this.mesh = new Mesh({ geometry: this.geometry, shader: this.shader });
    this.overlay = new Graphics();
    app.stage.addChild(this.mesh, this.overlay);
  }

  private createTexture(width: number, height: number): Texture {
    this.blank = new Uint8Array(width * height);
    this.size = { width, height };
    this.uploaded = null;
    return new Texture({
      source: new BufferImageSource({
        resource: this.blank,
        width,
        height,
        format: 'r8unorm',
        alphaMode: 'no-premultiply-alpha',
        scaleMode: 'linear',
      }),
    });
  }

  /** The image's size in image pixels (1 x 1 before the first image). */
  get imageSize(): Size {
    return this.size;
  }

  /** Shows `image`, re-uploading the texture only when its bytes are not the ones already on the GPU. */
  setImage(image: PanelImage): void {
    const width = Math.max(1, image.width);
    const height = Math.max(1, image.height);
    if (width !== this.size.width || height !== this.size.height) {
      const old = this.texture;
      this.texture = this.createTexture(width, height);
      // Unbind before destroying: Pixi warns about (and mishandles) a destroyed source still bound.
      this.shader.resources.uTexture = this.texture.source;
      old?.destroy(true);
    }
    const data = image.data && image.data.length === width * height ? image.data : this.blank!;
    const uploaded = this.uploaded;
    if (uploaded && uploaded.buffer === data.buffer && uploaded.offset === data.byteOffset && uploaded.revision === image.revision) return;
    const source = this.texture!.source;
    source.resource = data;
    source.update();
    this.uploaded = { buffer: data.buffer, offset: data.byteOffset, revision: image.revision };
  }

  /**
   * The texture's bytes are now also in `data` (the shown frame moved to its chunk's buffer, same
   * pixels): the texture keeps what it holds, and a later draw of `data` uploads nothing.
   */
  adoptShownBytes(data: Uint8Array): void {
    if (data.length !== this.size.width * this.size.height) return;
    this.texture!.source.resource = data;
    this.uploaded = { buffer: data.buffer, offset: data.byteOffset, revision: undefined };
  }

  setBrightnessContrast({ brightness, contrast }: BrightnessContrast): void {
    this.uniforms.uniforms.uBrightness = brightness;
    this.uniforms.uniforms.uContrast = contrast;
  }

  transform(view: ViewState, viewport: Size): ViewTransform {
    return viewTransform(this.size, viewport, view, this.fitMode);
  }

  resize(viewport: Size): void {
    this.app.renderer.resize(Math.max(1, viewport.width), Math.max(1, viewport.height));
  }

  /** Places the quad for `view` and draws one frame; the caller redraws `overlay` first if it needs to. */
  render(view: ViewState, viewport: Size): void {
    const t = this.transform(view, viewport);
    this.mesh.position.set(t.x, t.y);
    this.mesh.scale.set(this.size.width * t.scaleX, this.size.height * t.scaleY);
    this.app.render();
  }

  /**
   * Records on the canvas which slice's image it shows (nothing while it shows black), so tests
   * and benchmarks can tell when a slice change has reached the screen without reading pixels back.
   */
  markDrawn(slice: number | null): void {
    const canvas = this.app.canvas as HTMLCanvasElement;
    if (slice === null) delete canvas.dataset.drawnSlice;
    else canvas.dataset.drawnSlice = String(slice);
  }

  /** Frees the GPU texture, geometry and shader; the Application itself is destroyed by @pixi/react. */
  destroy(): void {
    this.mesh.destroy();
    this.overlay.destroy();
    this.geometry.destroy();
    // The shader first, so that the texture is no longer bound when it goes.
    this.shader.destroy();
    this.texture?.destroy(true);
    this.texture = null;
    this.blank = null;
  }
}
