export interface ListView {
  id: string;
  name: string;
  description: string | null;
  optIn: 'single' | 'double';
  contactCount: number;
  subscribedCount: number;
  createdAt: string;
  updatedAt: string;
}
