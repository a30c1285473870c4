/** Template library, previews and image uploads: the shapes the server answers and the web reads. */

/** A template or campaign rendered by the server for one contact (or the sample contact). */
export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  contact: { email: string; name: string | null; fields: Record<string, unknown> };
}
