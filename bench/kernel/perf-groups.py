#!/usr/bin/env python3
# Group perf samples by step of migration (bench/kernel/results/perf-contig-anon-*.txt):
#   perf script -i perf.data --comm sh -F comm,ip,sym | bench/kernel/perf-groups.py
# Each sample goes to the group of the innermost frame of its call chain that
# names a step; prints the share of each group of the samples read.
import collections
import re
import sys
cats = [
 ('copy', ['folio_mc_copy','copy_mc_enhanced_fast_string','copy_page']),
 ('tlb flush (IPI)', ['smp_call_function_many_cond','flush_tlb_mm_range','try_to_unmap_flush','native_flush_tlb_multi','flush_tlb_func']),
 ('unmap: rmap walk, migration entries', ['try_to_migrate','try_to_migrate_one','rmap_walk_anon','page_vma_mapped_walk']),
 ('remap (remove_migration_ptes)', ['remove_migration_ptes','remove_migration_pte']),
 ('target allocation (buddy)', ['alloc_migration_target','__folio_alloc_noprof','__alloc_frozen_pages_noprof','get_page_from_freelist']),
 ('free of the old page', ['migrate_folio_done','free_one_page','__free_frozen_pages','free_unref_folios','__folio_put','folios_put_refs']),
 ('LRU putback', ['folio_batch_move_lru','__folio_batch_add_and_move','folio_putback_lru','putback_movable_pages','folio_add_lru']),
 ('isolation from LRU', ['isolate_migratepages_range','isolate_migratepages_block']),
 ('reclaim of clean pages', ['reclaim_clean_pages_from_list','shrink_folio_list']),
 ('drains', ['drain_all_pages','lru_add_drain_all','__drain_all_pages','lru_cache_disable']),
 ('range isolate/test/free-isolate', ['start_isolate_page_range','undo_isolate_page_range','test_pages_isolated','isolate_freepages_range','set_migratetype_isolate','isolate_single_pageblock']),
 ('range search (pfn_range_valid_contig, zone lock)', ['alloc_contig_pages_noprof']),
 ('migrate_pages other (mapping, flags, batch)', ['migrate_pages_batch','move_to_new_folio','migrate_folio_unmap','migrate_folio_move','__migrate_folio','folio_migrate_flags']),
 ('hugetlb prep/zeroing', ['prep_new_hugetlb_folio','clear_page_erms','__prep_compound_gigantic','init_new_hugetlb_folio','hugetlb_vmemmap_optimize_folio']),
]
lookup = {}
for name, fs in cats:
    for f in fs: lookup[f] = name
c = collections.Counter(); n = 0
cur = []
def flush():
    global n
    if not cur: return
    n += 1
    for f in cur:
        f2 = re.sub(r'\.(isra|part|constprop)\.\d+$', '', f)
        if f2 in lookup: c[lookup[f2]] += 1; return
    c['other: ' + cur[0]] += 1
for line in sys.stdin:
    line = line.rstrip()
    if not line.startswith('\t') and not line.startswith(' '):
        flush(); cur = []; continue
    parts = line.split()
    if len(parts) >= 2: cur.append(parts[1])
flush()
print("samples %d" % n)
other = sum(v for k, v in c.items() if k.startswith('other'))
for k, v in c.most_common():
    if not k.startswith('other'): print("%6.1f%%  %s" % (100.0 * v / n, k))
print("%6.1f%%  other" % (100.0 * other / n))
for k, v in c.most_common(12):
    if k.startswith('other'): print("     %5.1f%%  %s" % (100.0 * v / n, k))
