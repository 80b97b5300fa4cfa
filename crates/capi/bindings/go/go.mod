module example.invalid/longfellow-rs/mdoczk

go 1.18
