// Package pqcheck walks the footer and the pages of a Parquet file before the Arrow
// library reads them, so that a corrupt or hostile file is an error
// instead of an allocation of whatever size a page header claims.
//
// The library (v17) trusts a page header's sizes: it allocates the
// uncompressed size a header states before looking at the page, skips
// pages of unknown types without skipping their bodies, and its Snappy
// codec allocates the decoded length a block's own header states, up to
// 4 GiB. It never checks the pages' CRC checksums either. Check reads
// every page header of every column chunk with a small Thrift compact
// reader and refuses, naming the row group, column and page:
//
//   - a page that does not lie inside its column chunk, or a chunk that
//     does not lie inside the file;
//   - a page type other than data (V1, V2) and dictionary;
//   - negative sizes and counts, level lengths beyond the page;
//   - an uncompressed size above MaxPageBytes, or, for a compressed
//     page, more than MaxRatio times its compressed size (plus 1 MiB);
//   - a Snappy block whose stated length is not the page's;
//   - data pages whose values do not add up to the chunk's;
//   - a page whose CRC checksum, when its header has one, does not match.
//   - a data page whose level streams or dictionary indices hold fewer
//     entries than its header counts: the library's column reader loops
//     for ever on one (streams.go reads such pages whole, at most
//     MaxPageBytes, and decompresses them).
//
// CheckFooter walks the footer first: the library's Thrift decoder
// makes room for as many list elements as a list claims (up to 100
// million), so a list may claim no more elements than bytes are left,
// and the footer is at most MaxFooterBytes.
//
// Memory is bounded by a page header (at most MaxHeaderBytes), a fixed
// copy buffer and, for pages with levels or indices, a page and its
// decompressed copy (each at most MaxPageBytes), whatever the file says.
package pqcheck
