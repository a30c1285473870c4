/** Template library, previews and image uploads: the shapes the server answers and the web reads. */

/** A template or campaign rendered by the server for one contact (or the sample contact). */
export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  contact: { email: string; name: string | null; fields: Record<string, unknown> };
}

/** A starter template offered to every account (pt-BR, responsive, with unsubscribe link and footer). */
export interface StarterTemplate {
  /** Stable id of the starter (the gallery and the tests name it). */
  key: string;
  /** The occasion, in one line (the gallery's card). */
  description: string;
  name: string;
  subject: string;
  html: string;
}

/** A template of the account in a list: without its HTML (read the template for that). */
export interface TemplateSummary {
  id: string;
  name: string;
  subject: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A template as the API answers it. */
export interface TemplateView extends TemplateSummary {
  html: string;
  builderProject: Record<string, unknown> | null;
  text: string | null;
  /** The per-message variables it takes (`{{ dados.<nome> }}`), each required in a send's `data` (ADR 0035). */
  variables: string[];
}

/** An uploaded image for e-mails (POST /api/uploads/images; also each item of GET /api/uploads/images). */
export interface UploadedImage {
  id: string;
  url: string;
  width?: number;
  height?: number;
  bytes: number;
  contentType: string;
  name?: string;
  createdAt: string;
}
