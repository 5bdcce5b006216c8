module github.com/seqleague/seqleague

go 1.26.8
