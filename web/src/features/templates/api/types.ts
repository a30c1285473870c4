export interface StarterTemplate {
  key: string;
  name: string;
  description: string;
  subject: string;
  html: string;
}

export type { RenderedPreview as RenderedTemplate } from '@carteiro/shared';
