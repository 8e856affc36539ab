// `npm run storage:migrate`: copies the uploads on this machine's disk (DATA_DIR/uploads) into
// the bucket S3_BUCKET names, before nodes are switched to it (README "Deploying"). Safe to run
// while the server runs, and to run again: what the bucket has is skipped.
import { join } from 'node:path'
import { parseEnv } from '#server/env.ts'
import { checkBucket, createS3Storage, s3Client } from '#server/lib/s3-storage.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { copyStore } from '#server/lib/storage-copy.ts'

const env = parseEnv()
if (!env.S3_BUCKET) {
  console.error('Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the keys) to the bucket to copy into.')
  process.exit(1)
}
const client = s3Client(env)
await checkBucket(client, env).catch((err: Error) => {
  console.error(err.message)
  process.exit(1)
})
const source = join(env.DATA_DIR, 'uploads')
process.stdout.write(`Copying ${source} into bucket ${env.S3_BUCKET}...\n`)
const done = await copyStore(createDiskStorage(source), createS3Storage(client, env.S3_BUCKET), (p) =>
  process.stdout.write(`\r${p.copied} copied, ${p.skipped} already there`),
)
process.stdout.write('\n')
for (const key of done.damaged) console.error(`Left out ${key}: its bytes no longer match their key`)
process.stdout.write(
  `Done: ${done.copied} copied, ${done.skipped} already in the bucket, ${done.damaged.length} damaged.\n`,
)
process.exit(done.damaged.length ? 2 : 0)
