import type { Database } from 'better-sqlite3';
import { stmt } from './content-sql';

/**
 * Data access for the thin operator areas kept as JSON documents in admin_records, and for uploads
 * (migration 002).
 */

export interface RecordRow {
  id: string;
  school_id: string;
  area: string;
  data: string;
  created_at: number;
  updated_at: number;
}

export interface AdminRecord {
  id: string;
  area: string;
  data: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

function toRecord(r: RecordRow): AdminRecord {
  return {
    id: r.id,
    area: r.area,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function listRecords(
  db: Database,
  schoolId: string,
  area: string,
  limit: number,
  offset: number,
): { rows: AdminRecord[]; total: number } {
  const rows = stmt<object, RecordRow>(
    db,
    'SELECT * FROM admin_records WHERE school_id = :school AND area = :area ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all({ school: schoolId, area, limit, offset });
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM admin_records WHERE school_id = :school AND area = :area',
  ).get({
    school: schoolId,
    area,
  })!.n;
  return { rows: rows.map(toRecord), total };
}

export function getRecord(
  db: Database,
  schoolId: string,
  area: string,
  id: string,
): AdminRecord | undefined {
  const r = stmt<object, RecordRow>(
    db,
    'SELECT * FROM admin_records WHERE school_id = :school AND area = :area AND id = :id',
  ).get({
    school: schoolId,
    area,
    id,
  });
  return r ? toRecord(r) : undefined;
}

export function putRecord(
  db: Database,
  schoolId: string,
  area: string,
  id: string,
  data: Record<string, unknown>,
  at: number,
): AdminRecord {
  stmt(
    db,
    `INSERT INTO admin_records (id, school_id, area, data, created_at, updated_at) VALUES (:id, :school, :area, :data, :at, :at)
     ON CONFLICT (id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
  ).run({ id, school: schoolId, area, data: JSON.stringify(data), at });
  return getRecord(db, schoolId, area, id)!;
}

export function deleteRecord(db: Database, schoolId: string, area: string, id: string): boolean {
  return (
    stmt(
      db,
      'DELETE FROM admin_records WHERE school_id = :school AND area = :area AND id = :id',
    ).run({ school: schoolId, area, id }).changes > 0
  );
}

export function insertUpload(
  db: Database,
  row: {
    id: string;
    school_id: string;
    file_name: string;
    content_type: string;
    size: number;
    bytes: Buffer;
    created_at: number;
  },
): void {
  stmt(
    db,
    `INSERT INTO uploads (id, school_id, file_name, content_type, size, bytes, created_at)
     VALUES (:id, :school_id, :file_name, :content_type, :size, :bytes, :created_at)`,
  ).run(row);
}
